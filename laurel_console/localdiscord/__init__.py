"""A loopback stand-in for Discord's REST API and gateway, for tests."""
