"""A desktop notification server for Chromium, so a test can click a notification as a person
does.

On Linux Chromium shows a web page's notifications through the desktop's notification server
(the freedesktop.org Desktop Notifications interface, ``org.freedesktop.Notifications`` on the
D-Bus session bus), and a click there (the server's ``ActionInvoked`` signal with the
``default`` action) reaches the service worker as a real ``notificationclick``: the one event
in which ``clients.openWindow`` and ``WindowClient.focus`` are allowed (a synthetic event
dispatched by a script is refused both).

``NotificationDaemon`` starts a private ``dbus-daemon`` (its own socket in a temporary folder,
no service activation: nothing else is started, the machine's buses are never touched), owns
the notification server's name on it and records what Chromium shows. Give Chromium
``DBUS_SESSION_BUS_ADDRESS=daemon.address``. Chromium routes the click to a notification of its
regular profile only (a persistent context, ``launch_persistent_context``; a Playwright
``new_context`` is an off-the-record profile whose clicks go nowhere).
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@dataclass
class Shown:
    id: int
    summary: str
    body: str
    actions: list[str]
    closed: bool = False


class NotificationDaemon:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="c10s-dbus-"))
        config = self.dir / "bus.conf"
        config.write_text(BUS_CONFIG.format(dir=self.dir))
        self.bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        try:
            assert self.bus.stdout is not None
            self.address = self.bus.stdout.readline().strip()
            if not self.address:
                raise AssertionError("dbus-daemon did not start")
            self.connection = open_dbus_connection(bus=self.address)
            reply = self.connection.send_and_get_reply(message_bus.RequestName(NAME, 4))
            if reply.body != (1,):  # DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
                raise AssertionError(f"could not own {NAME}: {reply.body}")
        except BaseException:
            self.bus.kill()
            self.bus.wait()
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        self.shown: list[Shown] = []
        self._changed = threading.Condition()
        self._clicks: queue.Queue[int | None] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # --- what a test does --------------------------------------------------------------------
    def wait_for(self, summary: str, after: int = 0, timeout: float = 10.0) -> Shown:
        """The first notification titled ``summary`` shown after the ``after`` first ones."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for shown in self.shown[after:]:
                    if shown.summary == summary and not shown.closed:
                        return shown
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no notification {summary!r}; shown: {self.shown}")
                self._changed.wait(left)

    def click(self, shown: Shown) -> None:
        """A click on the notification (not on one of its buttons)."""
        self._clicks.put(shown.id)

    def close(self) -> None:
        self._clicks.put(None)
        self._thread.join(timeout=5)
        self.connection.close()
        self.bus.kill()
        self.bus.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- the server's side of the interface ---------------------------------------------------
    def _serve(self) -> None:
        """All D-Bus traffic on this one thread (the connection is not shared)."""
        signals = DBusAddress(PATH, interface=NAME)
        while True:
            try:
                clicked = self._clicks.get_nowait()
            except queue.Empty:
                pass
            else:
                if clicked is None:
                    return
                self.connection.send(new_signal(signals, "ActionInvoked", "us",
                                                (clicked, "default")))
            try:
                message = self.connection.receive(timeout=0.05)
            except TimeoutError:
                continue
            if message.header.message_type != MessageType.method_call:
                continue
            member = message.header.fields.get(HeaderFields.member)
            if member == "GetCapabilities":
                answer = new_method_return(message, "as", (["actions", "body"],))
            elif member == "GetServerInformation":
                answer = new_method_return(message, "ssss", ("c10s-tests", "c10s", "1", "1.2"))
            elif member == "Notify":
                _app, replaces, _icon, summary, body, actions, _hints, _ms = message.body
                with self._changed:
                    number = replaces or len(self.shown) + 1
                    self.shown.append(Shown(number, summary, body, list(actions)))
                    self._changed.notify_all()
                answer = new_method_return(message, "u", (number,))
            elif member == "CloseNotification":
                with self._changed:
                    for shown in self.shown:
                        if shown.id == message.body[0]:
                            shown.closed = True
                    self._changed.notify_all()
                answer = new_method_return(message, "", ())
            else:
                continue
            self.connection.send(answer)
