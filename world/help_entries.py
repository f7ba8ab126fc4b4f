"""
File-based help entries (Evennia's ``FILE_HELP_ENTRY_MODULES``): ``help screenreader`` (the
views as sentences), ``help mush`` (the MUSH codes: ``%r``, ``%ch%cr`` …; written ``%%`` here,
as help text is parsed like any message), and one topic page per rule
system, ``help storyteller``, ``help aeon``, ``help eldritch`` and ``help elethril``: how a
turn runs, the dice, defenses, damage and health, and the commands only that system has.
Each part is a subtopic (``help aeon/damage``). The full rules, with the seed sections and
every data option: ``docs/rules/<system>.md``, served on the website as ``/rules/<system>/``
(``web/website/views/rules.py``). Command help itself is the commands'
docstrings (``commands.help``).
"""

SYSTEMS = "Rule systems"

HELP_ENTRY_DICTS = [
    {
        "key": "screenreader",
        "aliases": ["screen reader", "accessibility"],
        "category": "General",
        "text": """
            Fray for a screen reader: every view as sentences.

            option screenreader=True makes every Fray view linear sentences
            for this connection: the HUD is one line for the round and whose
            turn, then one sentence a fighter ("1, Guard (NPC), init 14,
            health Hurt (-1), 1 lethal, 1 bashing, 5 of 7 free, status TO
            ACT."); the sheet and the NPC, armor, spell, item and fight lists
            likewise, without rules or columns. In everything sent to this
            connection, narration included, a health track's boxes
            ([LB.....]) are said in words.

            option screenreader=False turns it off; option/save
            screenreader=True keeps it for your later logins. See help option.
        """,
    },
    {
        "key": "mush",
        "aliases": ["mush codes", "codes", "colour codes", "color codes"],
        "category": "General",
        "text": """
            MUSH codes: line breaks, tabs and colour in what you write.

            They act in poses, says and emits (pose, :, say, @remit, @pemit),
            scene titles, armor request reasons and staff comments (+request,
            +armor/revoke):

              %%r   line break          %%t   tab            %%b   space
              %%ch  bright              %%cn  normal         %%%%   a single %%
              %%cr %%cg %%cy %%cb %%cm %%cc %%cw %%cx   red, green, yellow, blue, magenta,
                                                cyan, white, black
              %%cR ... %%cX       the same as a background
              %%c500, %%c[500     xterm256 colour (red, green, blue 0-5), fore- or
                                background

            A colour runs to the end of the message unless %%cn ends it.

            Evennia's ||r codes (help color) act in poses, says and emits;
            titles refuse them, reasons and comments show them as typed.
            Where the game quotes what you typed (a name in an error line)
            every code is shown as typed. The scene log and the web pages are
            plain text: %%r is a line break there, colours are left out. A
            title is one line: no %%r.

            In a pose, Evennia's $pron() and $conj(): $pron(your,f) reads
            "your" to you and "her" to others (m: his, p: their; none: its);
            $conj(smile) reads "smile" to you and "smiles" to them.

            Example: :draws $pron(your,f) sword.%%r%%ch%%crThe blade glows.%%cn
        """,
    },
    {
        "key": "storyteller",
        "category": SYSTEMS,
        "text": """
            The storyteller system: pools of d10 against a difficulty, in the
            manner of the classic World of Darkness games. The default system
            unless staff chose another. A Storyteller starts a fight with
            +combat/start storyteller.

            A round: everyone rolls initiative once (+combat/init: Wits +
            Dexterity + 1d10, wound penalty included); the highest acts first.
            On your turn: attack, +cast or escape. When attacked, dodge, block
            or parry if you have not acted yet this round (it uses your
            action), or 'defend none'. Damage is rolled, then soaked by kind;
            wounds fill seven health levels.

            The full rules, with every option: the website's /rules/storyteller/
            (docs/rules/storyteller.md in the game's files).

            # subtopics

            ## dice
            A pool of d10; each die at or above the difficulty (2-10, usually
            6) is a success. Each 1 takes a success away; no success and a 1
            is a botch. Damage and soak rolls count successes only. +roll/wp
            adds one success no 1 can cancel. The wound penalty comes off
            every pool but damage and soak.

            ## turn
            Initiative is Wits + Dexterity + 1d10, rolled once a fight; ties
            go to the higher Wits + Dexterity. One action a round: attack,
            +cast, escape. The Storyteller moves the fight on with
            +combat/next and can move an attack's or a defense's difficulty
            (+combat/diff) or add dice (+combat/mod). +combat/start storyteller
            duel: a formal duel, where brawl attacks are refused.

            ## defenses
            dodge (Dexterity + Dodge), block (Dexterity + Brawl: only damage
            your kind can soak), parry (Dexterity + Melee, a weapon or shield),
            each vs 6; each success cancels one of the attack's. Defending
            uses your action, so only before you act. Parrying a brawl attack
            with a lethal weapon can cut the attacker.

            ## damage
            Strength + weapon + the hit's extra successes, rolled vs 6; each
            success a level of bashing, lethal or aggravated. Soak: Stamina
            vs 5, for the types your kind soaks (Muggle bashing; Wizard
            bashing and lethal; Vampire all but aggravated fire; Werewolf
            transformed all). Staff-approved armor adds soak dice. Seven health
            levels, Bruised to Incapacitated, with wound penalties 0 to -5;
            lethal past Incapacitated is death.

            ## commands
            attack <target>/<punch, kick, grapple, hold, tackle or weapon>,
            escape, +cast and +spells (magic), +roll/wp, +stat <name>/kind=
            (Muggle, Wizard, Vampire, Werewolf; /base_kind, /transformed).
        """,
    },
    {
        "key": "aeon",
        "category": SYSTEMS,
        "text": """
            The aeon system: Trinity-style d10 pools at target number 7, with
            hardness, clinches, ambushes, hiding and mounted combat. A
            Storyteller starts a fight with +combat/start aeon.

            A round: everyone rolls initiative once (+combat/init: Dexterity +
            Wits + 1d10); an ambush comes before it; the highest acts first.
            On your turn: attack (with called shots), ambush, hide, clinch,
            pickup or +combat/treat. When attacked, dodge, block or parry if
            you have not acted yet. Damage below hardness does nothing; soak
            takes dice off; each damage success is a health level.

            The full rules, with every option: the website's /rules/aeon/
            (docs/rules/aeon.md in the game's files).

            # subtopics

            ## dice
            A pool of d10; each 7 or more is a success. The difficulty is the
            successes needed (usually 1). 1s cancel nothing; no success and a
            1 is a botch. +roll/wp adds one success.

            ## turn
            Initiative is Dexterity + Wits + 1d10, rolled once a fight, wound
            penalty included. One action a round, or n with +combat/split n
            (the first at -n dice, each later -1 more). Ambushes (ambush)
            strike before initiative; a hidden fighter (hide) is found again
            when they attack. A Baseline who has lost more than a third of their
            health levels to lethal or aggravated wounds bleeds one more lethal
            level every 10 rounds until treated (+combat/treat).

            ## defenses
            dodge (Dexterity + Athletics), block (Dexterity + Brawl; not
            against ranged attacks or clinches), parry (Dexterity + Melee, a
            weapon in hand; not against ranged attacks). Each success cancels
            one of the attack's; defending uses your action. A clinch may be
            accepted (defend accept); nobody in a clinch dodges, blocks or
            parries. Mounted, your dodge is capped by Ride.

            ## damage
            Weapon damage + the attack's net successes. Below the target's
            hardness (half their soak) nothing happens; otherwise soak comes
            off (at least one die is left), rolled at 7: each success is a
            health level. Baselines soak bashing with Stamina; Zetas also
            lethal (Stamina / 2). Seven levels, Bruised to Incapacitated.

            ## commands
            ambush, hide, clinch, defend accept, +mount, +dismount, pickup,
            +combat/treat, +combat/split, called shots (attack
            Guard/pistol+showoff 3), +stat/aeon <name>/kind= (Baseline or
            Zeta; each system keeps its own sheet).
        """,
    },
    {
        "key": "eldritch",
        "category": SYSTEMS,
        "text": """
            The eldritch system: Unisystem-style 1d10 + traits, Success
            Levels, several actions a turn and bought advanced maneuvers. A
            Storyteller starts a fight with +combat/start eldritch.

            A turn: everyone rolls initiative anew each turn (+combat/init:
            (Dexterity + Perception)/2 + qualities + 1d10), with a further
            action every 5 below it. On your turn: attack, a maneuver or a
            +move. When attacked you may defend any number of times, even
            after acting (each later defense at -2 more); the higher total
            wins and your Success Levels come off the attack's.

            The full rules, with every option: the website's /rules/eldritch/
            (docs/rules/eldritch.md in the game's files).

            # subtopics

            ## dice
            1d10 + traits and numbers; 9 or more succeeds, and the total gives
            Success Levels (9-10 one, 11-12 two ...). A natural 10 rolls on
            upwards (Rule of 10), a natural 1 downwards (Rule of 1). No
            difficulty and no Willpower. +roll 0 is a bare d10 for chances.

            ## turn
            Initiative is (Dexterity + Perception)/2 (+ Fast Reaction Time,
            Situational Awareness) + 1d10, rolled each turn. You act at it and
            every 5 below (at most 5 actions); each later action of the turn
            is at -2 more. Movement (+move) is an action too.

            ## defenses
            dodge (Dexterity + Acrobatics or Brawl, the better), block
            (Dexterity + Brawl) and parry (Dexterity + Melee, a weapon in
            hand); block and parry only hand-to-hand. Bought maneuvers:
            damaging-block, wall-flip, catch-weapon, ranged-deflection,
            whirling-sword. A defense uses no action; each after your first
            in a turn is at -2 more.

            ## damage
            Bash: Strength x the weapon's multiplier + net Success Levels;
            lethal: the same + 2 per net Success Level; firearms: the
            multiplier x net Success Levels. Soak (Constitution, Natural Toughness, Protection
            (Bullets), approved armor) comes off. Life Points: (Strength +
            Constitution) x 4 + 10; at 0 down, at -10 dead.

            ## commands
            +combat/space, +conceal, +search, +spot, +eyecontact, +los,
            +move, +sacrifice, +wake, +drama, attack A,B/double jump kick.
        """,
    },
    {
        "key": "elethril",
        "category": SYSTEMS,
        "text": """
            The elethril system: AD&D 2nd edition, d20 against THAC0 and Armor
            Class, rounds of ten segments. A Storyteller starts a fight with
            +combat/start elethril.

            A round: everyone declares an action first (attack, cast or use),
            in secret. Then initiative is rolled for all, lowest first: d10 +
            the weapon's speed factor - Reaction (round 1: one d10 per side).
            The Storyteller plays the round segment by segment with
            +combat/next. There is no dodge, block or parry: Armor Class is
            the defense. Hit points; at 0 down, at -10 dead.

            The full rules, with every option: the website's /rules/elethril/
            (docs/rules/elethril.md in the game's files).

            # subtopics

            ## dice
            Dice notation: +roll 1d20+2, +roll 2d6; 'vs <n>' is the total to
            reach. To hit: d20 + plusses + Hit Probability against THAC0 -
            the target's Armor Class; a natural 20 hits, a natural 1 misses.

            ## turn
            Declare (attack <target>[/<weapon>][*<attacks>], cast <spell>,
            use <item>), then initiative: d10 + speed factor (nothing for a
            spell) + standard modifiers (+combat/init hasted ...) - Reaction,
            lowest first, never below 1; 11 or more lands in a later round.
            In each segment: spells, instants, missiles, melee. Being hit
            while casting spoils the spell; one who falls loses the rest of
            the action. +combat/delay and +combat/forfeit change your place.

            ## defenses
            None to type: Armor Class (the sheet's, or the approved armor
            worn, or 10) is the defense. defend is refused in elethril.

            ## damage
            The weapon's dice for the target's size (S/M or L) + plusses +
            Damage Adjustment, at least 1. Hit points are the sheet's (10
            without); at 0 or less down, at -10 dead. No wound penalty.

            ## commands
            +combat/side, +combat/party, +combat/offhand, +combat/delay,
            +combat/forfeit, +combat/init <modifiers>, cast, use, +item.
        """,
    },
]
