// placeholder
new WebSocket("ws://x");
