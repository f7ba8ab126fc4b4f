"""The ``storyteller`` rule system (``docs/rules/storyteller.md``): ``system`` (``StorytellerSystem``, with the
actions a fight under it plays), its dice, its tables' checks."""
