"""The ``aeon`` rule system (``docs/rules/aeon.md``): ``system`` (``AeonSystem``, with the
actions a fight under it plays), its dice, its tables' checks."""
