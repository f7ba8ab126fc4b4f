/*
 * Fray: the webclient's font plugin (replaces Evennia's, which loads its font choices from a
 * public font service). Every font here is served by the game: DejaVu Sans Mono ships with
 * Evennia, the others are installed from the npm registry by `make install` into
 * /static/vendor/fonts/ (server/vendor.py). Same plugin interface and the same saved
 * settings (localStorage evenniaFontFamily / evenniaFontSize) as Evennia's.
 */
let font_plugin = (function () {

    // font family -> stylesheet defining it ('' : the browser's own font of that name)
    const fontStyles = {
        "B612 Mono": "/static/vendor/fonts/b612-mono/index.css",
        "Consolas": "",
        "DejaVu Sans Mono": "/static/webclient/fonts/DejaVuSansMono.css",
        "Fira Mono": "/static/vendor/fonts/fira-mono/index.css",
        "Inconsolata": "/static/vendor/fonts/inconsolata/index.css",
        "Monospace": "",
        "Roboto Mono": "/static/vendor/fonts/roboto-mono/index.css",
        "Source Code Pro": "/static/vendor/fonts/source-code-pro/index.css",
        "Ubuntu Mono": "/static/vendor/fonts/ubuntu-mono/index.css",
    };

    var saved = function (key, fallback) {
        var value = localStorage.getItem(key);
        return value === null ? fallback : value;
    };

    var applyFamily = function (family) {
        $(document.body).css("font-family", family);
    };

    var applySize = function (size) {
        $(document.body).css("font-size", size + "em");
    };

    var onOptionsUI = function (parentdiv) {
        var familySelect = $("<select>");
        var sizeSelect = $("<select>");
        Object.keys(fontStyles).forEach(function (family) {
            familySelect.append($("<option>").val(family).text(family));
        });
        for (var tenth = 4; tenth < 21; tenth++) {
            sizeSelect.append($("<option>").val(tenth / 10.0).text(tenth));
        }
        familySelect.val(saved("evenniaFontFamily", "DejaVu Sans Mono"));
        sizeSelect.val(saved("evenniaFontSize", "0.9"));
        familySelect.on("change", function (event) {
            var family = $(event.target).val();
            applyFamily(family);
            localStorage.setItem("evenniaFontFamily", family);
        });
        sizeSelect.on("change", function (event) {
            var size = $(event.target).val();
            applySize(size);
            localStorage.setItem("evenniaFontSize", size);
        });
        parentdiv.append("<div style='font-weight: bold'>Font Selection:</div>");
        parentdiv.append(familySelect);
        parentdiv.append(sizeSelect);
    };

    var init = function () {
        Object.values(fontStyles).forEach(function (href) {
            if (href) {
                $(document.head).append($("<link rel='stylesheet'>").attr("href", href));
            }
        });
        var family = localStorage.getItem("evenniaFontFamily");
        if (family !== null) {
            applyFamily(family);
        }
        var size = localStorage.getItem("evenniaFontSize");
        if (size !== null) {
            applySize(size);
        }
    };

    return {
        init: init,
        onOptionsUI: onOptionsUI,
    };
})();
window.plugin_handler.add("font", font_plugin);
