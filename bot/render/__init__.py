"""Pure builders: domain objects in, Discord embeds and localized text out. No I/O."""
