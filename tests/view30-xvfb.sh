#!/bin/sh
# view30 in a real X window on a virtual display (Xvfb), driven by xdotool's real key and
# mouse events: two presses of Right (10 degrees), a drag of 127 pixels to the right
# (twist 137), F12 (the window's own pixels read back by SDL, kept as OUT/window-137.png),
# then the X server's own screen (Xvfb's framebuffer file, -fbdir, in XWD format) copied to
# OUT/screen.xwd with the window's place on it in OUT/geometry.txt; then the bend's slider
# dragged to -180, p (the state saved), h (the help) and F12 again (OUT/view30-window.png,
# the screen as OUT/screen-help.xwd), q. test_view30_xvfb compares the first two with
# lab30's PNG of 137 degrees, the saved state with the slider's, and the help's two.
#   view30-xvfb.sh VIEW30 OUT
set -u
view=$1 out=$2
for c in Xvfb xdotool; do
    command -v "$c" >/dev/null 2>&1 || {
        echo "view30-xvfb: $c is missing: sudo apt-get install -y xvfb xdotool (make test installs them as root)" >&2
        exit 1
    }
done
# a display of its own: Xvfb takes a free number and writes it to descriptor 3
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -fbdir "$out" 3>"$out/display" 2>"$out/xvfb.log" &
xvfb=$!
view_pid=
trap 'kill $xvfb 2>/dev/null; [ -n "$view_pid" ] && kill $view_pid 2>/dev/null' EXIT
i=0
while [ ! -s "$out/display" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$out/display" ] || { echo "view30-xvfb: Xvfb did not start:" >&2; cat "$out/xvfb.log" >&2; exit 1; }
DISPLAY=:$(cat "$out/display")
export DISPLAY
unset SDL_VIDEODRIVER WAYLAND_DISPLAY
"$view" --out "$out" >"$out/view.log" 2>&1 &
view_pid=$!
wid=$(timeout 30 xdotool search --sync --name '^view30' | head -n 1)
[ -n "$wid" ] || { echo "view30-xvfb: no view30 window appeared:" >&2; cat "$out/view.log" >&2; exit 1; }
xdotool windowfocus --sync "$wid"
sleep 0.5
step() { xdotool "$@" && sleep 0.3; }
step key Right
step key Right
step mousemove --window "$wid" 400 300
step mousedown 1
step mousemove --window "$wid" 527 300
step mouseup 1
step key F12
# F12 is handled after the drag's frame is on the screen: once its read-back is written,
# the screen holds the same frame (waited for, not slept on, for a loaded machine)
i=0
while [ ! -s "$out/view30-window.png" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.2
xdotool getwindowgeometry --shell "$wid" >"$out/geometry.txt"
cp "$out/Xvfb_screen0" "$out/screen.xwd"
mv "$out/view30-window.png" "$out/window-137.png"
# the bend's slider: its knob pressed at 0 (the track's middle) and dragged 34 pixels left,
# a quarter of the track: -180; p saves the state; h the help, F12 its read-back
step mousemove --window "$wid" 720 432
step mousedown 1
step mousemove --window "$wid" 686 432
step mouseup 1
step key p
step key h
step key F12
i=0
while [ ! -s "$out/view30-window.png" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.2
cp "$out/Xvfb_screen0" "$out/screen-help.xwd"
xdotool key q
i=0
while kill -0 $view_pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
wait $view_pid
rc=$?
view_pid=
[ $rc -eq 0 ] || { echo "view30-xvfb: view30 exited $rc:" >&2; cat "$out/view.log" >&2; exit 1; }
[ -s "$out/window-137.png" ] && [ -s "$out/view30-window.png" ] || { echo "view30-xvfb: F12 wrote no view30-window.png:" >&2; cat "$out/view.log" >&2; exit 1; }
[ -s "$out/screen.xwd" ] && grep -q '^X=' "$out/geometry.txt" || { echo "view30-xvfb: no screen or geometry from Xvfb" >&2; exit 1; }
