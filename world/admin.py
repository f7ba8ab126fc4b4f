"""The Django admin's view of Fray's scene logs (``world.scenes``): read only, with search."""

from django.contrib import admin

from world.models import Scene, SceneEntry


class SceneEntryInline(admin.TabularInline):
    model = SceneEntry
    fields = ("number", "kind", "speaker", "text", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "room_name", "started_by", "started", "stopped", "entry_count")
    search_fields = ("title", "room_name", "started_by", "entries__text")
    list_filter = ("stopped",)
    readonly_fields = ("room", "room_name", "title", "started_by", "stopped_by", "entry_count", "started",
                       "stopped")
    inlines = [SceneEntryInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
