#!/usr/bin/env python3
"""A newcomer's whole loop in a real window, driven from outside as a person drives it.

Starts a virtual X display (Xvfb) with a window manager (openbox), launches tensorstudio as on a
first start (empty settings), and walks: welcome page -> one click on an example's Train -> the
first curve point in the dashboard -> profile a step -> a debugged run -> Save As -> close the tab
-> reopen it from File > Open Recent -> train more (Continue). Every click and key goes through
the X server with xdotool; where to click is read from the map of widget rectangles tensorstudio
writes when TSTUDIO_UI_MAP is set (app/gui/ui_map.h). Screenshots of the screen (ImageMagick's
`import`) are kept in the artifacts folder. It prints every action and the number of actions from
the first start to the first curve point (goal: at most 5), and fails past 5.

Usage: window_walkthrough.py TENSORSTUDIO EXAMPLES_DIR ARTIFACTS_DIR
Exit 77 (CTest: skipped) when Xvfb, openbox, xdotool or import are not installed.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
FIRST_CURVE_GOAL = 5


class WalkFailed(Exception):
    pass


class Walk:
    def __init__(self, exe, examples, artifacts):
        self.exe = exe
        self.artifacts = artifacts
        os.makedirs(artifacts, exist_ok=True)
        self.scratch = tempfile.mkdtemp(prefix="tstudio-walk-")
        # The examples are copied so that their runs/ folders are written in the scratch folder.
        self.examples = os.path.join(self.scratch, "examples")
        shutil.copytree(examples, self.examples, ignore=shutil.ignore_patterns("runs"))
        self.map_path = os.path.join(self.scratch, "ui_map.json")
        self.actions = []
        self.shots = 0
        self.xvfb = self.wm = self.app = None
        self.env = None

    # --- the display and the program --------------------------------------------------------------
    def start_display(self):
        read_fd, write_fd = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1440x900x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        deadline = time.time() + 20
        while not number.endswith(b"\n") and time.time() < deadline:
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_fd)
        if not number.strip():
            raise WalkFailed("Xvfb did not report a display number")
        home = os.path.join(self.scratch, "home")
        os.makedirs(home)
        self.env = dict(os.environ)
        for key in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "SESSION_MANAGER"):
            self.env.pop(key, None)
        self.env.update({
            "DISPLAY": ":" + number.decode().strip(),
            "HOME": home,  # a first start: no settings, no recent files
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local/share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_RUNTIME_DIR": self.scratch,
            "TSTUDIO_EXAMPLES_DIR": self.examples,
            "TSTUDIO_UI_MAP": self.map_path,
            "LANG": "C.UTF-8",
        })
        self.wm = subprocess.Popen(["openbox"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)

    def launch(self):
        self.log = open(os.path.join(self.artifacts, "tensorstudio.log"), "w")
        self.app = subprocess.Popen([self.exe], env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        self.wait_for(lambda m: self.find(m, name="startPage") is not None, 60, "the welcome page to show")
        self.xdo("search", "--sync", "--onlyvisible", "--name", "TensorStudio", "windowactivate", "--sync")
        self.xdo("search", "--onlyvisible", "--name", "TensorStudio", "windowsize", "1400", "860")
        time.sleep(0.5)

    def stop(self):
        if self.app and self.app.poll() is None:
            self.app.send_signal(signal.SIGTERM)
            try:
                self.app.wait(15)
            except subprocess.TimeoutExpired:
                self.app.kill()
        for proc in (self.wm, self.xvfb):
            if proc and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        shutil.rmtree(self.scratch, ignore_errors=True)

    # --- reading the window -------------------------------------------------------------------------
    def map(self):
        if self.app.poll() is not None:
            raise WalkFailed("tensorstudio exited with status %d (see tensorstudio.log)" % self.app.returncode)
        try:
            with open(self.map_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {"widgets": [], "tabs": [], "dialogs": []}

    @staticmethod
    def find_all(m, name=None, cls=None, text=None, inside=None):
        found = []
        for w in m["widgets"]:
            if name is not None and w["name"] != name:
                continue
            if cls is not None and not w["class"].endswith(cls):
                continue
            if text is not None and text.lower() not in w.get("text", "").replace("&", "").lower():
                continue
            if inside is not None:
                cx, cy = w["x"] + w["w"] // 2, w["y"] + w["h"] // 2
                if not (inside["x"] <= cx < inside["x"] + inside["w"] and inside["y"] <= cy < inside["y"] + inside["h"]):
                    continue
            found.append(w)
        return found

    def find(self, m, **kw):
        found = self.find_all(m, **kw)
        return found[0] if found else None

    def wait_for(self, predicate, timeout, what):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.map()
            value = predicate(m)
            if value:
                return value
            time.sleep(0.25)
        self.screenshot("timeout")
        raise WalkFailed("gave up after %d s waiting for %s" % (timeout, what))

    def tab_texts(self, m):
        return [t["text"] for t in m["tabs"]]

    # --- acting as a person -------------------------------------------------------------------------
    def xdo(self, *args):
        subprocess.run(["xdotool", *args], env=self.env, check=True, stdout=subprocess.DEVNULL, timeout=60)

    def act(self, description):
        self.actions.append(description)
        print("  action %2d: %s" % (len(self.actions), description), flush=True)

    def click(self, widget, description, double=False):
        if not widget["enabled"]:
            raise WalkFailed("cannot click %s: it is disabled" % description)
        x, y = widget["x"] + widget["w"] // 2, widget["y"] + widget["h"] // 2
        if widget["class"] in ("QCheckBox", "QRadioButton"):
            x = widget["x"] + min(8, widget["w"] // 2)  # on the box: a wide check box's right part is empty
        self.act("click " + description)
        self.xdo("mousemove", "--sync", str(x), str(y))
        self.xdo("click", "--repeat", "2" if double else "1", "1")
        time.sleep(0.3)

    def key(self, keys, description):
        self.act("press %s (%s)" % (keys, description))
        self.xdo("key", "--clearmodifiers", keys)
        time.sleep(0.4)

    def type_text(self, text, description):
        self.act("type %s" % description)
        self.xdo("type", "--delay", "20", text)
        time.sleep(0.3)

    def screenshot(self, name):
        self.shots += 1
        path = os.path.join(self.artifacts, "%02d-%s.png" % (self.shots, name))
        subprocess.run(["import", "-window", "root", path], env=self.env, check=False, timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("  screenshot %s" % path, flush=True)

    # --- the walk -----------------------------------------------------------------------------------
    def run(self):
        self.start_display()
        print("first start of %s" % self.exe, flush=True)
        self.launch()
        self.screenshot("welcome")

        # 1. The spirals card's Train: one click trains an example that needs no download.
        m = self.map()
        title = next((t for t in self.find_all(m, name="exampleTitle") if "spiral" in t.get("text", "").lower()), None)
        if title is None:
            raise WalkFailed("the welcome page shows no spirals example card")
        card = next((c for c in self.find_all(m, name="exampleCard")
                     if self.find_all({"widgets": [title]}, inside=c)), None)
        train = self.find(m, name="trainButton", inside=card) if card else None
        if train is None:
            raise WalkFailed("the spirals card has no Train button")
        self.click(train, "Train on the spirals example card")

        def first_point(m):
            return [c for c in self.find_all(m, cls="ScalarChart") if c.get("points", 0) > 0]
        charts = self.wait_for(first_point, 180, "the first curve point in the dashboard")
        to_first_curve = len(self.actions)
        self.screenshot("first-curve")
        print("actions from first start to the first curve point: %d (goal: at most %d); chart %s"
              % (to_first_curve, FIRST_CURVE_GOAL, charts[0].get("text")), flush=True)

        # 2. Profile a step of the running training.
        m = self.map()
        tabs_before = len(m["tabs"])
        profile = self.find(m, name="trainingProfile")
        if profile is None:
            raise WalkFailed("the Training panel shows no Profile button")
        self.click(profile, "Profile (the next step) in the Training panel")
        self.wait_for(lambda m: self.find(m, cls="ProfilerView") is not None and len(m["tabs"]) > tabs_before, 120,
                      "a profiler tab")
        self.screenshot("profiler")

        # 3. Stop, then a debugged run: Debug on, Start; the Debugger tab attaches.
        self.stop_run()
        m = self.map()
        debug = self.find(m, name="trainingDebug")
        if not debug.get("checked"):
            self.click(debug, "Debug in the Training panel")
        self.tick_continue()
        self.click(self.find(self.map(), name="trainingStart"), "Start in the Training panel")
        self.wait_for(lambda m: self.find(m, cls="DebuggingTab") is not None, 120, "the Debugger tab")
        time.sleep(2.0)
        self.screenshot("debugger")
        self.stop_run()
        m = self.map()
        debug = self.find(m, name="trainingDebug")
        if debug.get("checked"):
            self.click(debug, "Debug off in the Training panel")

        # 4. Save As: back to the project's editor tab, Ctrl+Shift+S, a file name, Enter.
        m = self.map()
        editor_tab = next((t for t in m["tabs"] if t["text"].rstrip(" *").endswith(".tsproj")), None)
        if editor_tab is None:
            raise WalkFailed("no tab shows the project (tabs: %s)" % self.tab_texts(m))
        self.select_tab(editor_tab["text"])
        saved = os.path.join(self.scratch, "my-spirals.tsproj")
        self.key("ctrl+shift+s", "Save As")
        self.wait_for(lambda m: any("save" in d.lower() for d in m["dialogs"]), 30, "the Save As dialog")
        time.sleep(0.5)
        self.key("ctrl+a", "select the suggested name")
        self.type_text(saved, "the new project's path")
        self.key("Return", "save")
        self.wait_for(lambda m: os.path.exists(saved) and not m["dialogs"], 30, "the saved project file")
        self.screenshot("saved")

        # 5. Close its tab (Ctrl+W) and reopen it from File > Open Recent.
        self.key("ctrl+w", "Close Tab")
        self.wait_for(lambda m: not any(t["text"].startswith("my-spirals") for t in m["tabs"]), 30, "the tab to close")
        self.key("alt+f", "the File menu")
        self.key("r", "Open Recent")
        self.key("1", "the first recent file")
        self.wait_for(lambda m: any(t["text"].startswith("my-spirals") and t["current"] for t in m["tabs"]), 60,
                      "the saved project to reopen")
        self.screenshot("reopened")

        # 6. Train more: F5 shows the Training panel with this project; Continue; Start.
        self.key("F5", "Train")
        m = self.wait_for(lambda m: m if (self.find(m, name="trainingStart") or {}).get("enabled") else None, 30,
                          "Start in the Training panel")
        self.tick_continue()
        steps = self.find(self.map(), name="trainingSteps")
        if steps is None:
            raise WalkFailed("the Training panel shows no Train to step box")
        self.click(steps, "Train to step")
        self.key("ctrl+a", "select the step count")
        self.type_text("4000", "4000 steps")
        self.click(self.find(self.map(), name="trainingStart"), "Start in the Training panel")
        status = self.wait_for(lambda m: (self.find(m, name="trainingStatus") or {}).get("text", "")
                               if "step" in (self.find(m, name="trainingStatus") or {}).get("text", "").lower()
                               else None, 120, "the second run's progress")
        print("  training panel: %s" % status, flush=True)
        # It went on from the saved run's checkpoint, not from step 0.
        progress = self.wait_for(lambda m: self.progress_step(m) if self.progress_step(m) > 3000 else None, 120,
                                 "training past step 3000 (continued from the saved run)")
        print("  continued to step %d" % progress, flush=True)
        self.screenshot("trained-more")
        self.stop_run()

        summary = ("walk complete: %d actions in all; %d to the first curve point (goal: at most %d)"
                   % (len(self.actions), to_first_curve, FIRST_CURVE_GOAL))
        print(summary, flush=True)
        # Kept with the screenshots, so that CI's artifacts say what was done.
        with open(os.path.join(self.artifacts, "actions.txt"), "w") as f:
            f.write(summary + "\n")
            for number, action in enumerate(self.actions, 1):
                f.write("%2d %s\n" % (number, action))
        if to_first_curve > FIRST_CURVE_GOAL:
            raise WalkFailed("%d actions to the first curve point, more than %d" % (to_first_curve, FIRST_CURVE_GOAL))

    def progress_step(self, m):
        """The step the Training panel's progress bar shows ("Step 3,512 of 4,000"), 0 if none."""
        for w in self.find_all(m, cls="QProgressBar"):
            text = w.get("text", "")
            digits = text.split(" of ")[0].replace("Step", "").replace(",", "").strip()
            if digits.isdigit():
                return int(digits)
        return 0

    def stop_run(self):
        """Stop, unless the run has finished already (the spirals example trains in seconds)."""
        stop = self.find(self.map(), name="trainingStop")
        if stop is not None and stop["enabled"]:
            self.click(stop, "Stop in the Training panel")
        self.wait_for(lambda m: (self.find(m, name="trainingStart") or {}).get("enabled"), 120,
                      "the run to end (Start enabled again)")

    def tick_continue(self):
        """The run goes on from the log directory's latest checkpoint (Continue), as its message advises."""
        box = self.find(self.map(), cls="QCheckBox", text="Continue from")
        if box is None:
            raise WalkFailed("the Training panel shows no Continue check box")
        if not box.get("checked"):
            self.click(box, "Continue from the latest checkpoint")

    def select_tab(self, text):
        tab = next((t for t in self.map()["tabs"] if t["text"] == text), None)
        if tab is None:
            raise WalkFailed("no tab %r (tabs: %s)" % (text, self.tab_texts(self.map())))
        if not tab["current"]:
            self.click(tab, "the %s tab" % text)
        self.wait_for(lambda m: any(t["text"] == text and t["current"] for t in m["tabs"]), 10,
                      "the %s tab to be current" % text)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    missing = [tool for tool in ("Xvfb", "openbox", "xdotool", "import") if shutil.which(tool) is None]
    if missing:
        print("SKIP: the real-window walkthrough needs %s (Debian: xvfb openbox xdotool imagemagick)"
              % ", ".join(missing))
        return SKIP
    walk = Walk(*sys.argv[1:])
    try:
        walk.run()
        return 0
    except (WalkFailed, subprocess.SubprocessError) as error:
        print("FAIL: %s" % error, flush=True)
        return 1
    finally:
        walk.stop()


if __name__ == "__main__":
    sys.exit(main())
