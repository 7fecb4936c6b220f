"""Admin views for operators: what came in (and what became of it), what went out."""

from django.contrib import admin

from .models import InboundMessage, MailPreference, Outbox


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("received", "message_id", "sender", "transport", "outcome", "seat",
                    "reply_suppressed")
    list_filter = ("outcome", "transport")
    search_fields = ("message_id", "sender", "subject")
    readonly_fields = [f.name for f in InboundMessage._meta.fields]


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("created", "kind", "to", "subject", "status", "attempts", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("key", "to", "subject", "message_id")
    readonly_fields = [f.name for f in Outbox._meta.fields]


@admin.register(MailPreference)
class MailPreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "enabled", "changed")
    list_filter = ("kind", "enabled")
