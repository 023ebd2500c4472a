"""The PDP-6 console in a web page: its teletype and its Type 340 in a browser tab.

``pdp6 web FILE`` and ``machack web`` serve one page (plain files in ``static/``, no
build step) and give every browser tab its own emulated machine, run in a thread of the
server (:mod:`pdp6.host.web.console`), talking to the page over one websocket
(:mod:`pdp6.host.web.server`).  The page draws the 340's points with the P7 phosphor of
:mod:`pdp6.host.render`, computed in the browser from the points the machine drew, so the
server ships points, not pictures, and the emulation pays little for being watched.
"""
