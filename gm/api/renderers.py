"""DRF's browsable API (any /api/ URL opened in a browser), made accessible.

DRF's base template has no `lang` on <html> and its format menu is a button with only a
caret in it: neither sits in a template block, so they are set on the rendered page.
Colours and the phone layout are in templates/rest_framework/api.html (web/api.css).
tests/browser/test_api_pages.py runs axe-core on these pages: a DRF upgrade that moves
either piece of markup fails there, not silently.
"""

from __future__ import annotations

from rest_framework import renderers

FORMAT_MENU = 'data-toggle="dropdown" title="Specify a format for the GET request"'


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        page = super().render(data, accepted_media_type, renderer_context)
        page = page.replace("<html>", '<html lang="en">', 1)
        return page.replace(FORMAT_MENU, FORMAT_MENU + ' aria-label="Choose a format"', 1)
