"""The ``elethril`` rule system (``docs/rules/elethril.md``): ``system`` (``ElethrilSystem``, with the
actions a fight under it plays), its dice, its tables' checks."""
