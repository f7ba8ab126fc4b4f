"""Who hears a fight's events, registered in one place (``register``, called as the Server
starts and by the game tests): the telnet narrator, GMCP, the web tracker, scene logs, pose order and the
NPC AI, in that order; inside each command's transaction, the web tracker's narration
rows; after each command, the NPC AI's turns and the defense timers; after the
web tracker writes a tick's narration, its push to the open pages (``world.live``)."""

from __future__ import annotations


def register() -> None:
    from world import ai, fights, gmcp, live, narration, poses, scenes, timeouts, tracker

    for subscriber in (narration.narrate, gmcp.on_event, tracker.on_event, scenes.on_fight_event, poses.on_fight_event,
                       ai.heard):
        fights.subscribe(subscriber)
    fights.record_with(tracker.record)
    fights.when_settled(ai.drain)
    fights.when_settled(timeouts.watch)
    tracker.when_written(live.changed)
