"""/digest: subscribing a channel to scheduled, themed posts (the cog, its options, its checks)."""
