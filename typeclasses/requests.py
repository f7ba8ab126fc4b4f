"""The request store of an earlier Fray: one global script holding every armor request.

Requests are rows now (``world.models.ArmorRequest``). This typeclass stays only so an old
store can still be loaded: ``world.armor.adopt_request_store`` moves its requests to rows at
server start and deletes it.
"""

from evennia.scripts.scripts import DefaultScript
from evennia.typeclasses.attributes import AttributeProperty

REQUESTS_KEY = "fray_requests"


class RequestStore(DefaultScript):
    """Every request filed with ``+request``, open or handled.

    Attributes:
        requests: a list of ``{"id", "kind" ("armor"), "requester" (the Character, None once
            deleted), "requester_name", "system", "armor" (armor table key, None for a custom
            armor), "name" (what was asked for), "why", "status" (open/approved/denied/
            withdrawn/revoked), "created_at", "handled_by", "handled_at", "comment",
            "soak" (approved values), "revoked_by", "revoked_at", "revoke_reason"}``;
            timestamps are ISO datetimes (UTC).
        next_id: the number the next request gets (never reused).
    """

    requests = AttributeProperty(list, autocreate=False)
    next_id = AttributeProperty(1, autocreate=False)

    def at_script_creation(self):
        self.key = REQUESTS_KEY
        self.desc = "Fray staff requests (armor notes)"
        self.persistent = True
