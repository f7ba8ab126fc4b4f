"""The request store: one persistent global script holding every staff request.

Only storage lives here; the flow is in ``world.armor``. Created on first use
(``world.armor.request_store``) and found again by its key, so requests survive reloads,
restarts and a killed server.
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
