"""/curate: curators keep the catalogue from Discord (the cog, its forms, award, history, undo,
import and export)."""
