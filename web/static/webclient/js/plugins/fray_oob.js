/*
 * Fray: the webclient takes the two out-of-band packages the game sends every client that
 * negotiates them (world/gmcp.py): Char_Vitals and Fray_Combat, the data behind MUD
 * clients' gauges. The webclient shows the fight as text (+combat), so it takes them quietly
 * here; without this plugin Evennia's default output plugin prints each one as an
 * "Error or Unhandled event" block.
 */
let fray_oob_plugin = (function () {
    const packages = new Set(["Char_Vitals", "Fray_Combat"]);

    var onUnknownCmd = function (cmdname, args, kwargs) {
        return packages.has(cmdname);   // true: handled, no other plugin sees it
    };

    var init = function () {};

    return {
        init: init,
        onUnknownCmd: onUnknownCmd,
    };
})();
window.plugin_handler.add("fray_oob", fray_oob_plugin);
