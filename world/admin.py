"""Fray's screens in the Django admin: the scene logs (``world.scenes``), read only, with
search; armor requests, sheets, NPCs and armor notes (below)."""

from copy import copy

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.html import format_html_join

from rules.dice import TraitError
from rules.systems import CombatError, get_system, system_keys
from world import armor, chargen, reactor, sheets
from world.access import STAFF, has_perm
from world.models import (
    ArmorNotes,
    ArmorRequest,
    FrayNpc,
    FraySheet,
    Scene,
    SceneEntry,
    SheetLog,
    SheetReview,
    XpEntry,
)


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


# --- Fray's game screens: armor requests, sheets, NPCs, armor notes ------------------------
#
# Every change goes through the same service function as the matching command
# (``world.armor``, ``world.sheets``), run in the reactor thread by ``world.reactor.call``, so
# it is validated the same way and the player is told as in the game. Forms check each field
# with the same functions first, so an error is shown beside its field and nothing is saved.
# Any Django staff account (Evennia gives it to superusers) may see them; changing a sheet or
# armor notes also needs Builder or above in the game, as +stat and +armor/revoke do (else
# the page is read-only and a forged POST is 403). Others are sent to the admin's login page
# by the admin site itself.


NPC_TYPECLASS = "typeclasses.npcs.NPC"


class StaffOnly:
    """A screen for every Django staff account, whatever its Django model permissions."""

    view_on_site = False   # a game object has no page of its own on the website

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """Django's change page without its ``transaction.atomic()``: the change is made by
        the reactor thread in a transaction of its own (``world.reactor.call``), which a
        transaction held open by this thread would only get in the way of (SQLite locks the
        database for the reader until it ends: both threads would wait)."""
        return self._changeform_view(request, object_id, form_url, extra_context)

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def one_line(text: str) -> None:
    """A form validator: the game shows this text on a line of its own, so no line breaks,
    tabs or other control characters (a browser's text box sends none; a forged POST might)."""
    if any(not char.isprintable() for char in text):
        raise ValidationError("Write it on one line, without control characters.")


def _refused(error: Exception) -> str:
    """A service's refusal as the admin shows it: its one player-facing line (autoescaped)."""
    return str(error)


# --- armor requests ------------------------------------------------------------------------

def _number(text) -> int | None:
    """A request number from a URL: ASCII digits, as many as a request number may have
    (``world.armor.MAX_ID_DIGITS``; a bigger one would overflow PostgreSQL's bigint)."""
    text = str(text)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= armor.MAX_ID_DIGITS else None


class ApproveForm(forms.Form):
    """``+request/approve``'s soak values and comment, checked by ``world.armor.parse_soak``."""

    soak = forms.CharField(required=False, max_length=80, label="Soak values", validators=[one_line],
                           help_text="column:value pairs joined by commas; leave empty for a table "
                                     "armor's own values.")
    comment = forms.CharField(required=False, max_length=armor.MAX_COMMENT, validators=[one_line],
                              widget=forms.TextInput(attrs={"size": 80}))

    def __init__(self, *args, system_key: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.system_key = system_key
        try:   # the example in the request's system's own columns
            example = armor.soak_example(get_system(system_key))
        except CombatError:
            return
        self.fields["soak"].help_text = (f"column:value pairs joined by commas, e.g. {example}; leave "
                                         "empty for a table armor's own values.")

    def clean_soak(self):
        spec = self.cleaned_data["soak"].strip()
        if spec:
            try:
                armor.parse_soak(get_system(self.system_key), spec)
            except CombatError as error:
                raise ValidationError(_refused(error)) from None
        return spec


class DenyForm(forms.Form):
    reason = forms.CharField(max_length=armor.MAX_COMMENT, validators=[one_line], widget=forms.TextInput(attrs={"size": 80}),
                             error_messages={"required": "Give a reason: the player is told it."})


@admin.register(ArmorRequest)
class ArmorRequestAdmin(StaffOnly, admin.ModelAdmin):
    """Armor requests: read-only rows; the change page approves or denies an open one."""

    list_display = ("id", "status", "requester_name", "system_key", "name", "created_at", "handled_by")
    list_display_links = ("id", "name")
    list_filter = ("status", "system_key")
    search_fields = ("requester_name", "name", "why", "comment")
    readonly_fields = ("requester", "requester_name", "system_key", "armor", "name", "why", "status", "created_at",
                       "handled_by", "handled_at", "comment", "soak", "revoked_by", "revoked_at", "revoke_reason")
    change_form_template = "admin/fray/armorrequest/change_form.html"

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        own = [path("<int:number>/approve/", self.admin_site.admin_view(self.approve_view),
                    name="fray_armorrequest_approve"),
               path("<int:number>/deny/", self.admin_site.admin_view(self.deny_view),
                    name="fray_armorrequest_deny")]
        return own + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        number = _number(object_id)
        row = ArmorRequest.objects.filter(pk=number).first() if number else None
        extra = {"approve_form": ApproveForm(system_key=row.system_key if row else ""), "deny_form": DenyForm(),
                 **(extra_context or {})}
        extra["request_open"] = row is not None and row.status == ArmorRequest.OPEN or any(
            extra[name].errors for name in ("approve_form", "deny_form"))
        return super().change_view(request, object_id, form_url, extra)

    def _page(self, request, row, status: int, **forms_given):
        """The request's page again, with the forms as posted and their errors."""
        view = copy(request)
        view.method = "GET"
        response = self.change_view(view, str(row.id), extra_context=forms_given)
        response.status_code = status
        return response

    def _act(self, request, number: int, form_class, act, form_kwargs=None):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            return redirect("admin:login")
        row = get_object_or_404(ArmorRequest, pk=_number(number) or 0)
        form = form_class(request.POST, **(form_kwargs(row) if form_kwargs else {}))
        name = "approve_form" if form_class is ApproveForm else "deny_form"
        if not form.is_valid():
            messages.error(request, "Nothing was changed: correct the errors below.")
            return self._page(request, row, 400, **{name: form})
        try:
            line = act(row, form.cleaned_data)
        except CombatError as error:
            messages.error(request, _refused(error))
            return self._page(request, row, 409, **{name: form})
        messages.success(request, line)
        return redirect(reverse("admin:fray_armorrequest_change", args=[row.id]))

    def approve_view(self, request, number):
        def act(row, data):
            _, note = reactor.call("admin approve", armor.approve, request.user, row.id,
                                   spec=data["soak"], comment=data["comment"])
            return (f"Request #{row.id} approved: {note['name']} ({armor.soak_text(note['soak'], note['system'])}). "
                    f"{row.requester_name} is told.")

        return self._act(request, number, ApproveForm, act, form_kwargs=lambda row: {"system_key": row.system_key})

    def deny_view(self, request, number):
        def act(row, data):
            reactor.call("admin deny", armor.deny, request.user, row.id, data["reason"])
            return f"Request #{row.id} ({row.name}) denied. {row.requester_name} is told."

        return self._act(request, number, DenyForm, act)


# --- sheet approval ------------------------------------------------------------------------

class SheetApproveForm(forms.Form):
    comment = forms.CharField(required=False, max_length=chargen.MAX_COMMENT, validators=[one_line],
                              widget=forms.TextInput(attrs={"size": 80}))


class SheetUnapproveForm(forms.Form):
    reason = forms.CharField(max_length=chargen.MAX_COMMENT, validators=[one_line],
                             widget=forms.TextInput(attrs={"size": 80}),
                             error_messages={"required": "Give a reason: the player is told it."})


@admin.register(SheetReview)
class SheetReviewAdmin(StaffOnly, admin.ModelAdmin):
    """The sheets players submitted (``+chargen/submit``): read-only rows; the change page
    approves a waiting one or sends it back (``+approve``, ``+unapprove``)."""

    list_display = ("id", "status", "character_name", "system_key", "submitted_at", "handled_by", "handled_at")
    list_display_links = ("id", "character_name")
    list_filter = ("status", "system_key")
    search_fields = ("character_name", "comment")
    readonly_fields = ("character", "character_name", "system_key", "status", "submitted_at", "handled_by",
                       "handled_at", "comment", "sheet")
    change_form_template = "admin/fray/sheetreview/change_form.html"

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        own = [path("<int:number>/approve/", self.admin_site.admin_view(self.approve_view),
                    name="fray_sheetreview_approve"),
               path("<int:number>/unapprove/", self.admin_site.admin_view(self.unapprove_view),
                    name="fray_sheetreview_unapprove")]
        return own + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        number = _number(object_id)
        row = SheetReview.objects.filter(pk=number).first() if number else None
        extra = {"approve_form": SheetApproveForm(), "unapprove_form": SheetUnapproveForm(), **(extra_context or {})}
        extra["review_open"] = row is not None and row.status == SheetReview.SUBMITTED
        extra["review_approved"] = row is not None and row.status == SheetReview.APPROVED
        return super().change_view(request, object_id, form_url, extra)

    def _act(self, request, number, form_class, act):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            return redirect("admin:login")
        row = get_object_or_404(SheetReview, pk=_number(number) or 0)
        form = form_class(request.POST)
        name = "approve_form" if form_class is SheetApproveForm else "unapprove_form"
        status = None
        if not form.is_valid():
            messages.error(request, "Nothing was changed: correct the errors below.")
            status = 400
        else:
            try:
                messages.success(request, act(row, form.cleaned_data))
                return redirect(reverse("admin:fray_sheetreview_change", args=[row.id]))
            except CombatError as error:
                messages.error(request, _refused(error))
                status = 409
        view = copy(request)
        view.method = "GET"
        response = self.change_view(view, str(row.id), extra_context={name: form})
        response.status_code = status
        return response

    def approve_view(self, request, number):
        def act(row, data):
            reactor.call("admin approve sheet", chargen.approve, request.user, row.id, data["comment"])
            return f"{row.character_name}'s {row.system_key} sheet (#{row.id}) approved. They are told."

        return self._act(request, number, SheetApproveForm, act)

    def unapprove_view(self, request, number):
        def act(row, data):
            reactor.call("admin unapprove sheet", chargen.unapprove, request.user, row.id, data["reason"])
            return f"{row.character_name}'s {row.system_key} sheet (#{row.id}) sent back. They are told."

        return self._act(request, number, SheetUnapproveForm, act)


class ReadOnlyRows(StaffOnly):
    def has_change_permission(self, request, obj=None):
        return False


@admin.register(SheetLog)
class SheetLogAdmin(ReadOnlyRows, admin.ModelAdmin):
    """Rolls of ability scores and staff edits of approved sheets, read-only."""

    list_display = ("id", "at", "character_name", "system_key", "kind", "by", "what", "old", "new")
    list_filter = ("kind", "system_key")
    search_fields = ("character_name", "by", "what")
    readonly_fields = ("character", "character_name", "system_key", "kind", "by", "at", "what", "old", "new", "data")


@admin.register(XpEntry)
class XpEntryAdmin(ReadOnlyRows, admin.ModelAdmin):
    """Every experience award, spend and refund, read-only (``+xp/undo`` undoes a spend)."""

    list_display = ("id", "at", "character_name", "kind", "amount", "system_key", "trait", "old", "new", "by",
                    "undone_by")
    list_filter = ("kind", "system_key")
    search_fields = ("character_name", "reason", "trait", "by")
    readonly_fields = ("character", "character_name", "kind", "amount", "system_key", "trait", "old", "new",
                       "reason", "by", "at", "undone_by", "undone_at")


# --- sheets and NPCs -----------------------------------------------------------------------

#: The sheet fields that are not traits, in the order they are applied.
SHEET_FIELDS = ("kind", "base_kind", "transformed", "weapon")


def _trait_field(index: int) -> str:
    return f"trait_{index}"


def sheet_fields(system) -> tuple[str, ...]:
    """The fields of ``system``'s sheet form that are not traits: a kind only if the system
    has kinds, base kind and transformed only if one of its kinds transforms."""
    has_base = bool(sheets.kinds(system, "base_kind"))
    return tuple(field for field in SHEET_FIELDS if field == "weapon" or (field == "kind" and system.kinds)
                 or (field in ("base_kind", "transformed") and has_base))


class SheetFormBase(forms.ModelForm):
    """One system's sheet (``SYSTEM``): kind, base kind, transformed and weapon where the
    system has them, and one box per trait of it (empty: not set). Each rating is checked by
    ``world.sheets.parse_rating`` over the system's ``trait_range``, as ``+stat``."""

    TRAITS: tuple[str, ...] = ()
    SYSTEM = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        sheet = sheets.sheet_of(self.instance, self.SYSTEM) if self.instance.pk else {}
        traits = sheet.get("traits", {})
        def unset(field):  # what the form shows for a kind never set: Muggle, or the system's first
            known = sheets.kinds(self.SYSTEM, field)
            return "Muggle" if "Muggle" in known or not known else known[0]

        self.initial.update({field: value for field, value in (
            ("kind", sheet.get("kind") or unset("kind")), ("base_kind", sheet.get("base_kind") or unset("base_kind")),
            ("transformed", "yes" if sheet.get("transformed") else "no"), ("weapon", sheet.get("weapon") or ""))
            if field in self.fields})
        for index, trait in enumerate(self.TRAITS):
            self.initial[_trait_field(index)] = "" if traits.get(trait) is None else str(traits[trait])

    def clean(self):
        data = super().clean()
        for index, trait in enumerate(self.TRAITS):
            value = (data.get(_trait_field(index)) or "").strip()
            if value:
                try:
                    sheets.parse_rating(value, trait, *self.SYSTEM.trait_range(trait))
                except CombatError as error:
                    self.add_error(_trait_field(index), _refused(error))
        if data.get("transformed") == "yes" and not sheets.transforms(self.SYSTEM, data.get("kind") or ""):
            self.add_error("transformed", f"A {data.get('kind')} does not transform; only Werewolves do.")
        if not self.errors:
            self._try_changes()
        return data

    def _try_changes(self) -> None:
        """Every change, through ``+stat``'s checks, on a copy of the sheet (nothing saved): the
        first refusal is shown beside its field, so the form is saved whole or not at all."""
        scratch = sheets.scratch_copy(self.instance)
        for field, value in self.changes():
            try:
                sheets.set_stat(scratch, field, value, self.SYSTEM)
            except (CombatError, TraitError) as error:
                name = field if field in self.fields else _trait_field(self.TRAITS.index(field))
                self.add_error(name, _refused(error))
                return

    def changes(self) -> list[tuple[str, str]]:
        """``(field or trait, value)`` for ``world.sheets.set_stat``, fields first."""
        changed = set(self.changed_data)
        if "kind" in changed and self.cleaned_data.get("transformed") == "no":
            changed.discard("transformed")  # a new kind is not transformed (world.sheets.set_stat)
        done = [(field, self.cleaned_data[field]) for field in SHEET_FIELDS if field in changed]
        return done + [(trait, self.cleaned_data[_trait_field(index)].strip())
                       for index, trait in enumerate(self.TRAITS) if _trait_field(index) in changed]


def sheet_form(model, system=None) -> type[SheetFormBase]:
    """The form of ``system``'s sheet (default: the game's) for ``model``: its fields are
    built from that system's tables."""
    system = system or sheets.default_system()
    traits = tuple(system.trait_names)
    fields = sheet_fields(system)
    choices = {
        "kind": lambda: forms.ChoiceField(choices=[(k, k) for k in sheets.kinds(system)]),
        "base_kind": lambda: forms.ChoiceField(choices=[(k, k) for k in sheets.kinds(system, "base_kind")],
                                               label="Base kind",
                                               help_text="What a Werewolf soaks as when not transformed."),
        "transformed": lambda: forms.ChoiceField(choices=[("no", "no"), ("yes", "yes")]),
        "weapon": lambda: forms.ChoiceField(choices=[("", "none"), *system.weapon_names.items()], required=False),
    }
    declared = {
        **{field: choices[field]() for field in fields},
        **{_trait_field(index): forms.CharField(required=False, max_length=8, label=trait,
                                                widget=forms.TextInput(attrs={"size": 4}))
           for index, trait in enumerate(traits)},
        "TRAITS": traits,
        "SYSTEM": system,
        "Meta": type("Meta", (), {"model": model, "fields": ()}),
    }
    return type(f"{model.__name__}Form", (SheetFormBase,), declared)


def _admin_system(request):
    """The system whose sheet the page edits: ``?system=<key>`` (any case), else the game's
    default; None for a key that names no system."""
    key = request.GET.get("system", "").strip().casefold()
    if not key:
        return sheets.default_system()
    return get_system(key) if key in system_keys() else None


class SheetAdmin(StaffOnly, admin.ModelAdmin):
    """A list of characters with their Fray sheets (the default system's), searchable by
    name, and a form for one system's sheet (``?system=<key>``, links to the others)."""

    typeclass = settings.BASE_CHARACTER_TYPECLASS
    list_display = ("db_key", "kind", "traits", "weapon", "db_location")
    list_display_links = ("db_key",)
    search_fields = ("db_key",)
    ordering = ("db_key",)
    readonly_fields = ("db_key", "rule_system")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(db_typeclass_path=self.typeclass)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and has_perm(request.user, STAFF)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """An unknown ``?system=`` is refused (back to the list), never another system's form."""
        if _admin_system(request) is None:
            wanted = request.GET.get("system", "")[:40]
            messages.error(request, f"No rule system '{wanted}'. Systems: {', '.join(system_keys())}.")
            return redirect(reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist"))
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        return sheet_form(self.model, _admin_system(request) or sheets.default_system())

    def get_fieldsets(self, request, obj=None):
        system = _admin_system(request) or sheets.default_system()
        return [(None, {"fields": ("db_key", "rule_system", *sheet_fields(system))}),
                (f"{system.key} traits", {"fields": [_trait_field(i) for i in range(len(system.trait_names))]})]

    @admin.display(description="sheets")
    def rule_system(self, obj):
        """Links to each system's sheet (the one edited is named by the traits' heading)."""
        return format_html_join(" ", '<a href="?system={}">{}</a>', ((key, key) for key in system_keys()))

    @admin.display(description="kind")
    def kind(self, obj):
        system = sheets.default_system()
        return sheets.shown_kind(system, sheets.sheet_of(obj, system).get("kind")) or "-"

    @admin.display(description="traits")
    def traits(self, obj):
        sheet = sheets.traits_of(obj, sheets.default_system())
        return ", ".join(f"{trait} {value}" for trait, value in sheet.items()) or "(no traits set)"

    @admin.display(description="weapon")
    def weapon(self, obj):
        key = sheets.sheet_of(obj, sheets.default_system()).get("weapon") or ""
        return sheets.weapon_name(sheets.default_system(), key) if key else "none"

    def save_model(self, request, obj, form, change):
        try:
            for line in reactor.call("admin sheet", chargen.staff_set_stats, request.user, obj, form.changes(),
                                     form.SYSTEM):
                messages.info(request, line)
        except (CombatError, TraitError) as error:
            messages.error(request, _refused(error))

    def save_related(self, request, form, formsets, change):
        """Nothing related to save (the sheet is saved by ``save_model``)."""


@admin.register(FraySheet)
class FraySheetAdmin(SheetAdmin):
    pass


@admin.register(FrayNpc)
class FrayNpcAdmin(SheetAdmin):
    typeclass = NPC_TYPECLASS


# --- armor notes ---------------------------------------------------------------------------

def _note_text(note: dict) -> str:
    return f"#{note.get('id')} {note.get('name')} ({note.get('system')}: " \
           f"{armor.soak_text(note.get('soak') or {}, note.get('system'))})"


def _spec(soak: dict) -> str:
    return ",".join(f"{column}:{value}" for column, value in soak.items())


class NotesFormBase(forms.ModelForm):
    """Per note: its name, its soak (checked by ``world.armor.parse_soak`` for the note's
    system, as ``+request/approve``) and a box to revoke it; one reason for the revokes."""

    NOTES: tuple[dict, ...] = ()

    def clean(self):
        data = super().clean()
        for note in self.NOTES:
            number = note["id"]
            if data.get(f"revoke_{number}"):
                continue
            try:
                armor.parse_soak(get_system(note.get("system")), data.get(f"soak_{number}") or "")
            except CombatError as error:
                self.add_error(f"soak_{number}", _refused(error))
        return data

    def actions(self) -> tuple[list[tuple[int, str, str]], list[int]]:
        """(notes to change: (number, name, soak spec), notes to revoke)."""
        changed = set(self.changed_data)
        revoke = [note["id"] for note in self.NOTES if self.cleaned_data.get(f"revoke_{note['id']}")]
        edit = [(note["id"], self.cleaned_data[f"name_{note['id']}"], self.cleaned_data[f"soak_{note['id']}"])
                for note in self.NOTES if note["id"] not in revoke
                and {f"name_{note['id']}", f"soak_{note['id']}"} & changed]
        return edit, revoke


def notes_form(model, notes: list[dict]) -> type[NotesFormBase]:
    declared: dict = {"NOTES": tuple(notes), "Meta": type("Meta", (), {"model": model, "fields": ()})}
    for note in notes:
        number = note["id"]
        declared[f"name_{number}"] = forms.CharField(max_length=armor.MAX_ARMOR_TEXT, initial=note.get("name"),
                                                     label=f"#{number} name", validators=[one_line])
        declared[f"soak_{number}"] = forms.CharField(max_length=80, initial=_spec(note.get("soak") or {}),
                                                     label=f"#{number} soak ({note.get('system')})",
                                                     validators=[one_line])
        declared[f"revoke_{number}"] = forms.BooleanField(required=False, label=f"Revoke #{number}")
    declared["reason"] = forms.CharField(required=False, max_length=armor.MAX_COMMENT, label="Reason for revoking",
                                         validators=[one_line], widget=forms.TextInput(attrs={"size": 80}))
    return type(f"{model.__name__}Form", (NotesFormBase,), declared)


def apply_notes(staff, target, edit: list[tuple[int, str, str]], revoke: list[int], why: str) -> list[str]:
    """The admin's note changes through ``world.armor.edit_note`` and ``revoke``."""
    lines = [f"{target.key}'s note {_note_text(armor.edit_note(staff, target, *change))}." for change in edit]
    for number in revoke:
        lines.append(f"Revoked {target.key}'s note {_note_text(armor.revoke(staff, target, number, why))}.")
    return lines


@admin.register(ArmorNotes)
class ArmorNotesAdmin(StaffOnly, admin.ModelAdmin):
    """The characters with armor notes, a line per note; the change page edits or revokes."""

    list_display = ("db_key", "notes", "worn")
    search_fields = ("db_key",)
    ordering = ("db_key",)
    readonly_fields = ("db_key",)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(db_attributes__db_key="armor_notes",
                                                    db_attributes__db_category="fray").distinct()

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and has_perm(request.user, STAFF)

    def get_form(self, request, obj=None, change=False, **kwargs):
        return notes_form(self.model, armor.notes_of(obj) if obj else [])

    def get_fieldsets(self, request, obj=None):
        notes = armor.notes_of(obj) if obj else []
        sets = [(None, {"fields": ("db_key",)})]
        sets += [(_note_text(note), {"fields": (f"name_{note['id']}", f"soak_{note['id']}",
                                                f"revoke_{note['id']}")}) for note in notes]
        return sets + [("Revoking", {"fields": ("reason",)})]

    @admin.display(description="notes")
    def notes(self, obj):
        return "; ".join(_note_text(note) for note in armor.notes_of(obj)) or "(none)"

    @admin.display(description="worn")
    def worn(self, obj):
        note = armor.worn_note(obj)
        return f"#{note['id']}" if note else "nothing"

    def save_model(self, request, obj, form, change):
        edit, revoke = form.actions()
        try:
            for line in reactor.call("admin notes", apply_notes, request.user, obj, edit, revoke,
                                     form.cleaned_data.get("reason") or ""):
                messages.info(request, line)
        except CombatError as error:
            messages.error(request, _refused(error))

    def save_related(self, request, form, formsets, change):
        """Nothing related to save (the notes are saved by ``save_model``)."""
