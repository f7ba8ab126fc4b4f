"""The ``eldritch`` rule system (``docs/rules/eldritch.md``): ``system`` (``EldritchSystem``, with the
actions a fight under it plays), its dice, its tables' checks."""
