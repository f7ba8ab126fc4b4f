"""System commands Fray changes: ``@reload`` refuses to restart a Server that would not start.

Evennia's system commands read the database as their module is imported (game time), so this
module is imported by the cmdsets only, never at a test module's top."""

from evennia.commands.default.system import CmdReload as EvenniaCmdReload

from world.text import FRAY, escape


class CmdReload(EvenniaCmdReload):
    """
    reload the server

    Usage:
      @reload [reason]

    This restarts the server. The Portal is not affected: connections
    stay. Non-persistent scripts survive a reload (use @reset to purge)
    and at_reload() hooks are called.

    The server checks the game's message file (server/conf/messages.toml)
    and the chargen tables first, as it does when it starts: with a
    problem there the reload is refused, each problem on its own line,
    and the running server goes on as it was. Fix the file and reload.

    Examples:
      @reload
      @reload new attack wording
    """

    def func(self):
        from server.conf.server_services_plugins import start_problems

        problems = start_problems()
        if problems:
            self.msg("\n".join([f"{FRAY} Not reloaded: the Server would not start. The running Server "
                                 "goes on as it was; fix this and reload:"]
                                + [f"  {escape(problem)}" for problem in problems]))
            return
        super().func()
