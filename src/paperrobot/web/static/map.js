/* Options drawn on the map (web/moves.py): every element with data-key inside #map is the option of that key.
   Hover (or a first tap) previews it and its button; a click (or a second tap) answers by pressing the button
   of the same key, or choosing it in the list of many options. Without this script the buttons still answer. */
(function () {
  "use strict";
  function same(key) {
    var out = [];
    document.querySelectorAll("[data-key]").forEach(function (el) { if (el.dataset.key === key) out.push(el); });
    return out;
  }
  function preview(key) {
    document.querySelectorAll(".preview").forEach(function (el) { el.classList.remove("preview"); });
    if (key === null) return;
    same(key).forEach(function (el) {
      el.classList.add("preview");
      var group = el.closest ? el.closest("#map .attack-from") : null;  // Armada: an attack from another zone
      if (group && !group.classList.contains("shown")) showZone(group.dataset.zone);
    });
  }
  /* Arcs and ranges on demand (web/moves.py): the control under the map, a weapon's field chosen in the form, or
     (Armada) a hull zone of the attacking ship clicked on the map: shown one at a time ("*": every one). */
  var selected = "";  // the weapon (or hull zone) chosen last: a click on a target fills only its field
  function showArc(name) {
    var map = document.getElementById("map");
    if (!map) return;
    map.querySelectorAll(".arcshade, .ruler").forEach(function (el) {
      el.classList.toggle("shown", name === "*" || (name !== "" && el.dataset.arc === name));
    });
    map.querySelectorAll(".zone-pick").forEach(function (el) { el.classList.toggle("chosen", el.dataset.arc === name); });
    if (name && map.querySelector('.attack-from[data-zone="' + CSS.escape(name) + '"]')) showZone(name);
    var pick = document.getElementById("arc-pick");
    if (pick && pick.value !== name) {
      for (var i = 0; i < pick.options.length; i++) if (pick.options[i].value === name) pick.value = name;
    }
  }
  function showZone(zone) {
    document.querySelectorAll("#map .attack-from").forEach(function (el) {
      el.classList.toggle("shown", el.dataset.zone === zone);
    });
  }
  function weaponOf(field) {
    var name = field.name.replace(/^f\./, "");
    if (document.querySelector('#map .arcshade[data-arc="' + CSS.escape(name) + '"]')) return name;  // SFB: a field per weapon
    return (field.value || "").split("@")[0];  // FC: a shot slot holds "weapon@target[:mode]"
  }
  /* A target clicked on the map fills the fire form: the chosen weapon's field only, else every weapon that bears
     on it (data-fill: weapon -> value); a weapon without a field of its own (FC) goes in the slot that already holds
     it, else the first empty slot. The form's own check (htmx) then says whether the volley is legal. */
  function plan(target) {  // [[field, value], ...]: what a click on the target puts in the form
    var form = document.getElementById("form");
    if (!form) return [];
    var values = JSON.parse(target.dataset.fill || "{}");
    var weapons = Object.keys(values);
    if (selected && values[selected] !== undefined) weapons = [selected];
    var slots = Array.prototype.slice.call(form.querySelectorAll("[name^='f.']"));
    var used = [], out = [];
    weapons.forEach(function (w) {
      var field = form.querySelector('[name="f.' + CSS.escape(w) + '"]');
      if (!field) {
        field = slots.filter(function (f) { return used.indexOf(f) < 0 && (f.value || "").split("@")[0] === w; })[0] ||
                slots.filter(function (f) { return used.indexOf(f) < 0 && (!f.value || f.value === "none"); })[0];
      }
      if (!field) return;
      if (field.tagName === "SELECT" && !Array.prototype.some.call(field.options, function (o) { return o.value === values[w]; })) return;
      used.push(field);
      out.push([field, values[w]]);
    });
    return out;
  }
  function previewFill(target) {  // hover: the form's fields a click would set
    document.querySelectorAll("#form .field.preview").forEach(function (el) { el.classList.remove("preview"); });
    if (target) plan(target).forEach(function (p) { var box = p[0].closest(".field"); if (box) box.classList.add("preview"); });
  }
  function fill(target) {
    var last = null;
    plan(target).forEach(function (p) { p[0].value = p[1]; last = p[0]; });
    if (last) last.dispatchEvent(new Event("change", { bubbles: true }));
    document.querySelectorAll("#map .target.chosen").forEach(function (el) { el.classList.remove("chosen"); });
    target.classList.add("chosen");
  }
  document.addEventListener("change", function (e) {
    if (e.target.id === "arc-pick") { selected = e.target.value === "*" ? "" : e.target.value; showArc(e.target.value); }
  });
  document.addEventListener("focusin", function (e) {
    if (!e.target.matches || !e.target.matches("#form [name^='f.']")) return;
    var weapon = weaponOf(e.target);
    if (weapon && document.querySelector('#map [data-arc="' + CSS.escape(weapon) + '"]')) { selected = weapon; showArc(weapon); }
  });
  function choose(key) {
    var button = same(key).filter(function (el) { return el.tagName === "BUTTON"; })[0];
    if (button) { button.click(); return; }
    var list = document.querySelector("#options select[name=choice]");
    if (list) {
      list.value = key;
      if (list.form.requestSubmit) list.form.requestSubmit(); else list.form.submit();
    }
  }
  /* Armada's courses end a few mm apart: the pointer picks the course whose tool ends nearest to it (as the
     manoeuvre tool is set by its end), within 60 mm */
  function nearestCourse(e) {
    var map = document.getElementById("map");
    if (!map || !map.querySelector(".courses") || !map.getScreenCTM) return null;
    var point = new DOMPoint(e.clientX, e.clientY).matrixTransform(map.getScreenCTM().inverse());
    var best = null, bestDistance = 60;
    map.querySelectorAll(".course .handle").forEach(function (handle) {
      var d = Math.hypot(handle.cx.baseVal.value - point.x, handle.cy.baseVal.value - point.y);
      if (d < bestDistance) { bestDistance = d; best = handle.closest("[data-key]"); }
    });
    return best;
  }
  document.addEventListener("mousemove", function (e) {
    if (!e.target.closest || !e.target.closest("#map")) return;
    var course = nearestCourse(e);
    if (course && !course.classList.contains("preview")) preview(course.dataset.key);
  });
  /* the view follows the ships: a map larger than its box is scrolled to the moving ship's options, else the
     middle of the ships */
  function follow() {
    var map = document.querySelector(".mapbox > svg.hexmap");
    if (!map) return;
    var box = map.parentElement;
    if (box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight) return;
    var marks = map.querySelectorAll(".counter.ghost");
    if (!marks.length) marks = map.querySelectorAll(".counter.ship");
    if (!marks.length) return;
    var outer = box.getBoundingClientRect(), x = 0, y = 0;
    marks.forEach(function (m) { var r = m.getBoundingClientRect(); x += r.left + r.width / 2; y += r.top + r.height / 2; });
    x = x / marks.length - outer.left + box.scrollLeft; y = y / marks.length - outer.top + box.scrollTop;
    box.scrollLeft = x - box.clientWidth / 2; box.scrollTop = y - box.clientHeight / 2;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", follow); else follow();
  var touch = false;
  document.addEventListener("pointerdown", function (e) { touch = e.pointerType === "touch"; });
  document.addEventListener("click", function (e) {
    var target = e.target.closest ? e.target.closest("#map .target, #map .zone-pick") : null;
    if (target) {
      e.preventDefault();
      if (target.classList.contains("zone-pick")) { selected = target.dataset.arc; showArc(target.dataset.arc); }
      else fill(target);
      return;
    }
    var el = e.target.closest ? e.target.closest("#map [data-key]") : null;
    if (e.target.closest && e.target.closest("#map")) el = nearestCourse(e) || el;
    if (!el) return;
    e.preventDefault();
    if (touch && !el.classList.contains("preview")) { preview(el.dataset.key); return; }  // tap: look first
    choose(el.dataset.key);
  });
  document.addEventListener("keydown", function (e) {
    var target = e.target.closest ? e.target.closest("#map .target") : null;
    if (target && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); fill(target); return; }
    var el = e.target.closest ? e.target.closest("#map [data-key]") : null;
    if (el && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); choose(el.dataset.key); }
  });
  document.addEventListener("mouseover", function (e) {
    if (e.target.closest) previewFill(e.target.closest("#map .target"));
    var el = e.target.closest ? e.target.closest("[data-key]:not(.course)") : null;
    if (el) preview(el.dataset.key);
  });
  document.addEventListener("focusin", function (e) {
    var el = e.target.closest ? e.target.closest("[data-key]") : null;
    if (el) preview(el.dataset.key);
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches("#options select[name=choice]")) preview(e.target.value);
  });
})();
