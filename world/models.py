"""Fray's own tables: one row per fight and its append-only roll log.

A fight's whole state (roster, initiative, schedule, conditions, pending attacks, shields,
scene settings, per-system data) is one JSON document in ``Fight.state``, loaded once per
command and saved once inside the command's transaction (``world.fights``). The roll log is a
row per entry, numbered per fight, so an action costs the same in round 1 and round 50.
See ``docs/architecture.md``.
"""

from django.db import models


class Fight(models.Model):
    """One fight, running or ended (``ended`` set), in its room (``world.fights``)."""

    room = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    system_key = models.CharField(max_length=32, db_index=True)
    round = models.PositiveIntegerField(default=1)
    #: The number of the last event of this fight (events count from 1).
    seq = models.PositiveBigIntegerField(default=0)
    #: The number of roll-log entries written so far.
    log_count = models.PositiveIntegerField(default=0)
    #: The number of intents played so far (``FightIntent``).
    intent_count = models.PositiveIntegerField(default=0)
    #: When the fight last moved on to another turn (epoch seconds): a ``+combat/next``
    #: sent before then meant a turn already over.
    moved_at = models.FloatField(default=0)
    #: Verifiable dice (``world.dice``): the fight's secret seed (hex), shown only once the
    #: fight has ended; its SHA-256 (hex), shown from the start; and how many dice the seed
    #: has given so far (each die is drawn from the seed and its counter).
    dice_seed = models.CharField(max_length=64, blank=True, default="")
    dice_commitment = models.CharField(max_length=64, blank=True, default="")
    dice_counter = models.PositiveBigIntegerField(default=0)
    #: Everything else about the fight: ``rules.engine.FightState.to_record()``.
    state = models.JSONField(default=dict, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    ended = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"Fight #{self.id} ({self.system_key}, round {self.round})"


class FightLogEntry(models.Model):
    """One entry of a fight's roll log: who rolled what, with every line of the working."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="log_entries")
    #: 1, 2, 3 … within the fight.
    number = models.PositiveIntegerField()
    round = models.PositiveIntegerField()
    actor = models.CharField(max_length=80)
    what = models.CharField(max_length=200)
    lines = models.JSONField(default=list)
    #: The lines as a screen reader hears them (a health track's boxes in words), when they
    #: differ from ``lines``; else empty.
    spoken = models.JSONField(default=list, blank=True)
    #: The dice behind this entry, in roll order (``world.dice``): one record per die.
    dice = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fight", "number"]
        constraints = [models.UniqueConstraint(fields=["fight", "number"], name="fray_log_entry_number")]

    def __str__(self):
        return f"#{self.number} R{self.round} {self.actor}: {self.what}"

    def to_record(self) -> dict:
        return {"round": self.round, "actor": self.actor, "what": self.what, "lines": list(self.lines)}


class FightIntent(models.Model):
    """One intent played in a fight (``rules.engine.Intent.to_record()``), in order, with the
    dice it drew (``rules.dice.seeded.Draw`` records): ``+combat/verify`` replays them."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="intents")
    #: 1, 2, 3 … within the fight.
    number = models.PositiveIntegerField()
    intent = models.JSONField()
    dice = models.JSONField(default=list, blank=True)
    #: A digest of the state it left (``rules.engine.replay.digest``).
    after = models.CharField(max_length=16, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fight", "number"]
        constraints = [models.UniqueConstraint(fields=["fight", "number"], name="fray_intent_number")]

    def __str__(self):
        return f"#{self.number} {self.intent.get('action', '?')}"


class Scene(models.Model):
    """One scene log (``world.scenes``): a room's poses, says, emits and fight narration,
    recorded while it runs (``stopped`` unset). The room's name is kept as text, so the log
    reads the same once the room is renamed or gone."""

    room = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    room_name = models.CharField(max_length=80)
    title = models.CharField(max_length=80, blank=True, default="")
    started_by = models.CharField(max_length=80)
    stopped_by = models.CharField(max_length=80, blank=True, default="")
    #: The number of the last entry (entries count from 1).
    entry_count = models.PositiveIntegerField(default=0)
    started = models.DateTimeField(auto_now_add=True)
    stopped = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"Scene #{self.id} ({self.room_name}: {self.plain_title or 'untitled'})"

    @property
    def plain_title(self) -> str:
        """The title as read in the plain views (the log, the list, the web pages): its
        colour codes (``%ch%cr``) stripped, a ``%b`` a space."""
        from world.text import plain

        return plain(self.title or "").replace("\t", " ")


class SceneEntry(models.Model):
    """One line of a scene: what the room was shown, as plain text (colour codes stripped)."""

    KINDS = ("pose", "say", "emit", "narration")

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="entries")
    #: 1, 2, 3 … within the scene.
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=[(kind, kind) for kind in KINDS])
    speaker = models.CharField(max_length=80, blank=True, default="")
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scene", "number"]
        constraints = [models.UniqueConstraint(fields=["scene", "number"], name="fray_scene_entry_number")]

    def __str__(self):
        return f"#{self.number} {self.kind} {self.speaker}"


class FightNarration(models.Model):
    """One narration event of a fight as a bystander read it (the web tracker's record,
    ``web/website/views/fights.py``): its head line and its lines of dice, plain text."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="narration")
    #: The event's sequence number in its fight (``world.fights.FightEvent.seq``).
    seq = models.PositiveBigIntegerField()
    round = models.PositiveIntegerField()
    text = models.TextField()
    #: The same for a web page (``world.narration.web_html``): escaped HTML, colours as
    #: ``color-NNN`` classes (empty for rows kept before it was: the page shows ``text``).
    html = models.TextField(default="", blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fight", "seq"]
        constraints = [models.UniqueConstraint(fields=["fight", "seq"], name="fray_narration_seq")]

    def __str__(self):
        return f"#{self.seq} R{self.round}"


class ArmorRequest(models.Model):
    """A player's request for an armor note (``world.armor``): open until staff approve or
    deny it or its requester withdraws it; an approved one may later be revoked. The id is the
    request's number (``+request/view <#>``), never reused."""

    OPEN, APPROVED, DENIED, WITHDRAWN, REVOKED = "open", "approved", "denied", "withdrawn", "revoked"
    STATUSES = (OPEN, APPROVED, DENIED, WITHDRAWN, REVOKED)

    requester = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    requester_name = models.CharField(max_length=80)
    system_key = models.CharField(max_length=32)
    #: The armor table's key, or blank for a custom armor.
    armor = models.CharField(max_length=40, blank=True, default="")
    #: What was asked for: the table armor's name, or the player's words.
    name = models.CharField(max_length=80)
    why = models.TextField()
    status = models.CharField(max_length=16, choices=[(s, s) for s in STATUSES], default=OPEN, db_index=True)
    created_at = models.DateTimeField()
    handled_by = models.CharField(max_length=80, blank=True, default="")
    handled_at = models.DateTimeField(null=True, blank=True)
    comment = models.TextField(blank=True, default="")
    #: The soak approved, ``{"bashing": 2, "lethal": 1}`` (None until approved).
    soak = models.JSONField(null=True, blank=True)
    revoked_by = models.CharField(max_length=80, blank=True, default="")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoke_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"Request #{self.id} ({self.requester_name}: {self.name}, {self.status})"


class SheetReview(models.Model):
    """A character's sheet of one rule system put up for staff review (``world.chargen``):
    submitted, then approved or unapproved (sent back with a reason), or withdrawn by its
    player. A character's sheet is approved while its latest review is. The id is the entry's
    number in the queue, never reused."""

    SUBMITTED, APPROVED, UNAPPROVED, WITHDRAWN = "submitted", "approved", "unapproved", "withdrawn"
    STATUSES = (SUBMITTED, APPROVED, UNAPPROVED, WITHDRAWN)

    character = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    character_name = models.CharField(max_length=80)
    system_key = models.CharField(max_length=32, db_index=True)
    status = models.CharField(max_length=16, choices=[(s, s) for s in STATUSES], default=SUBMITTED,
                              db_index=True)
    #: The sheet as submitted (``world.sheets.sheet_of``), and the chargen record (rolled
    #: scores, class) beside it.
    sheet = models.JSONField(default=dict, blank=True)
    submitted_at = models.DateTimeField()
    handled_by = models.CharField(max_length=80, blank=True, default="")
    handled_at = models.DateTimeField(null=True, blank=True)
    #: The approver's comment, or the reason the sheet was sent back.
    comment = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"Sheet #{self.id} ({self.character_name}, {self.system_key}, {self.status})"


class SheetLog(models.Model):
    """Something done to a character's sheet outside character generation, kept for good:
    a staff edit of an approved sheet (who, when, old -> new) or a roll of ability scores
    (its verifiable dice: the seed, its commitment and the faces)."""

    EDIT, ROLL = "edit", "roll"

    character = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    character_name = models.CharField(max_length=80)
    system_key = models.CharField(max_length=32)
    kind = models.CharField(max_length=8, choices=[(EDIT, EDIT), (ROLL, ROLL)])
    by = models.CharField(max_length=80)
    at = models.DateTimeField()
    #: The trait or field changed ("" for a roll), and its value before and after, as text.
    what = models.CharField(max_length=80, blank=True, default="")
    old = models.CharField(max_length=80, blank=True, default="")
    new = models.CharField(max_length=80, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"#{self.id} {self.character_name} {self.kind} {self.what} {self.old} -> {self.new}"


class XpEntry(models.Model):
    """One award or spend of experience (``world.xp``); a character's balance is the sum of
    its entries' amounts. A spend undone by staff is marked (``undone_by``) and its refund is
    an entry of its own."""

    AWARD, SPEND, UNDO = "award", "spend", "undo"

    character = models.ForeignKey("objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    character_name = models.CharField(max_length=80)
    kind = models.CharField(max_length=8, choices=[(AWARD, AWARD), (SPEND, SPEND), (UNDO, UNDO)])
    amount = models.IntegerField()
    system_key = models.CharField(max_length=32, blank=True, default="")
    trait = models.CharField(max_length=80, blank=True, default="")
    old = models.IntegerField(null=True, blank=True)
    new = models.IntegerField(null=True, blank=True)
    reason = models.TextField(blank=True, default="")
    by = models.CharField(max_length=80)
    at = models.DateTimeField()
    undone_by = models.CharField(max_length=80, blank=True, default="")
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "XP entries"

    def __str__(self):
        return f"#{self.id} {self.character_name} {self.kind} {self.amount:+d}"


# --- the Django admin's screens over game objects (``world/admin.py``): proxies, no tables ---

from evennia.objects.models import ObjectDB  # noqa: E402


class FraySheet(ObjectDB):
    """A player character's Fray sheet, as the admin lists and edits it."""

    class Meta:
        proxy = True
        verbose_name = "Fray sheet"
        verbose_name_plural = "Fray sheets"


class FrayNpc(ObjectDB):
    """An NPC's Fray sheet, as the admin lists and edits it."""

    class Meta:
        proxy = True
        verbose_name = "NPC"
        verbose_name_plural = "NPCs"


class ArmorNotes(ObjectDB):
    """A character's approved armor notes, as the admin lists, edits and revokes them."""

    class Meta:
        proxy = True
        verbose_name = "armor notes"
        verbose_name_plural = "armor notes"
