"""
Command sets

All commands in the game must be grouped in a cmdset.  A given command
can be part of any number of cmdsets and cmdsets can be added/removed
and merged onto entities at runtime.

To create new commands to populate the cmdset, see
`commands/command.py`.

This module wraps the default command sets of Evennia; overloads them
to add/remove commands from the default lineup. You can create your
own cmdsets by inheriting from them or directly from `evennia.CmdSet`.

"""

from evennia import CmdSet, default_cmds

from commands import (
    account,
    actions,
    armor,
    chargen,
    eldritch,
    fray,
    helpcmd,
    items,
    npcs,
    scenes,
    system,
)
from commands import aeon as aeon_commands

FRAY_COMMANDS = (fray.CmdRoll, fray.CmdSheet, fray.CmdStat, fray.CmdCombat, npcs.CmdNpc, fray.CmdAttack,
                 fray.CmdDefend, fray.CmdEscape, fray.CmdCast, fray.CmdSpells, fray.CmdDamage, fray.CmdHeal, fray.CmdDice,
                 armor.CmdRequest, armor.CmdArmor, scenes.CmdScene, chargen.CmdChargen, chargen.CmdApprove,
                 chargen.CmdUnapprove, chargen.CmdXp)
FRAY_COMMANDS += (aeon_commands.CmdAmbush, aeon_commands.CmdHide, aeon_commands.CmdClinch, aeon_commands.CmdMount,
                  aeon_commands.CmdDismount, aeon_commands.CmdPickup)
FRAY_COMMANDS += (eldritch.CmdConceal, eldritch.CmdSearch, eldritch.CmdSpot, eldritch.CmdEyeContact, eldritch.CmdLos,
                  eldritch.CmdMove, eldritch.CmdSacrifice, eldritch.CmdWake, eldritch.CmdDrama, items.CmdItem,
                  items.CmdUse)


class IndexedNames:
    """Mixed into Fray's cmdsets: ``cmd in cmdset`` looks the command's key and aliases up in a
    set of the cmdset's names, instead of Evennia's scan.

    Evennia merges the Session, Account and Character cmdsets for every command typed, asking
    ``cmd in cmdset`` for each command of the lower set; it caches the answers in a
    ``WeakKeyDictionary`` keyed by Command objects, but every Command hashes alike, so each
    lookup compares against every cached command. Under the 200-client load benchmark that was
    the Server's largest single cost, ahead of Fray's own commands (docs/performance.md). The
    answer is the same: a command is in a cmdset when their keys or aliases meet."""

    def __contains__(self, othercmd):
        commands = self.commands
        index = self.__dict__.get("_fray_names")
        if index is None or index[0] is not commands or index[1] != len(commands):
            names = set().union(*(cmd._matchset for cmd in commands))
            index = self._fray_names = (commands, len(commands), names)
        matchset = getattr(othercmd, "_matchset", None)
        return othercmd in index[2] if matchset is None else not index[2].isdisjoint(matchset)

    def _duplicate(self):
        """The empty cmdset a merge fills (Evennia's copy of this one's settings), indexed too:
        Evennia makes it a plain ``CmdSet``, whose ``in`` the next merge then asks with the scan
        (the Session's, Account's and Character's cmdsets are merged in turn for every command;
        11 % of the Server's time at 500 clients, docs/performance.md)."""
        duplicate = super()._duplicate()
        duplicate.__class__ = MergedCmdSet
        return duplicate


class MergedCmdSet(IndexedNames, CmdSet):
    """What a merge onto one of Fray's cmdsets gives: Evennia's cmdset, indexed."""


class CharacterCmdSet(IndexedNames, default_cmds.CharacterCmdSet):
    """
    The `CharacterCmdSet` contains general in-game commands like `look`,
    `get`, etc available on in-game Character objects. It is merged with
    the `AccountCmdSet` when an Account puppets a Character.
    """

    key = "DefaultCharacter"

    def at_cmdset_creation(self):
        """
        Populates the cmdset
        """
        super().at_cmdset_creation()
        #
        # any commands you add below will overload the default ones.
        #
        self.add(helpcmd.CmdHelp())
        for command in (*FRAY_COMMANDS, *actions.commands()):
            self.add(command())
        self.add(scenes.CmdEmit())  # @emit/@remit, kept in a scene log
        self.add(scenes.CmdPose())  # Evennia's pose, with help on MUSH codes and $pron()


class AccountCmdSet(IndexedNames, default_cmds.AccountCmdSet):
    """
    This is the cmdset available to the Account at all times. It is
    combined with the `CharacterCmdSet` when the Account puppets a
    Character. It holds game-account-specific commands, channel
    commands, etc.
    """

    key = "DefaultAccount"

    def at_cmdset_creation(self):
        """
        Populates the cmdset
        """
        super().at_cmdset_creation()
        self.add(account.CmdQuit())
        self.add(account.CmdOOC())
        self.add(system.CmdReload())  # refuses a reload the Server's start would refuse
        self.add(helpcmd.CmdHelp())
        #
        # any commands you add below will overload the default ones.
        #


class UnloggedinCmdSet(IndexedNames, default_cmds.UnloggedinCmdSet):
    """
    Command set available to the Session before being logged in.  This
    holds commands like creating a new account, logging in, etc.
    """

    key = "DefaultUnloggedin"

    def at_cmdset_creation(self):
        """
        Populates the cmdset
        """
        super().at_cmdset_creation()
        #
        # any commands you add below will overload the default ones.
        #


class SessionCmdSet(IndexedNames, default_cmds.SessionCmdSet):
    """
    This cmdset is made available on Session level once logged in. It
    is empty by default.
    """

    key = "DefaultSession"

    def at_cmdset_creation(self):
        """
        This is the only method defined in a cmdset, called during
        its creation. It should populate the set with command instances.

        As and example we just add the empty base `Command` object.
        It prints some info.
        """
        super().at_cmdset_creation()
        #
        # any commands you add below will overload the default ones.
        #
