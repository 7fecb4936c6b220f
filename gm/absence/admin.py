from django.contrib import admin

from .models import Extension, Rules, SeatAbsence, Vacation

admin.site.register(Rules)
admin.site.register(SeatAbsence)
admin.site.register(Vacation)
admin.site.register(Extension)
