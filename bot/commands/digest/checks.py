"""What /digest checks before it writes: who asks, where Laurel may post, what the filters
match, and whether a schedule makes sense. Each failure is a UserError with a clear answer.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.commands.options import kind_of
from bot.digests.themes import ThemeSpec
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind, Language, Venue
from bot.domain.subscriptions import ALL_DAYS, MONDAY, Cadence, DigestFilter
from bot.errors import UserError
from bot.render.digest_admin import days_label, filters_text
from bot.render.i18n import Strings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository

AnyChannel = app_commands.AppCommandChannel | app_commands.AppCommandThread


def admin_guild(interaction: discord.Interaction) -> discord.Guild:
    """The server, if the member may manage it right now.

    Discord hides /digest from members without Manage Server by default, but a server can
    change who sees a command, so the permission is checked again on every use.
    """
    if interaction.guild is None:
        raise UserError("error-guild-only")
    if not interaction.permissions.manage_guild:
        raise UserError("digest-error-not-admin")
    return interaction.guild


def is_admin(interaction: discord.Interaction) -> bool:
    return interaction.guild is not None and interaction.permissions.manage_guild


def bot_missing_permissions(
    guild: discord.Guild, channel_id: int, parent_id: int | None = None
) -> list[str] | None:
    """The permissions Laurel lacks to post a digest in a channel (message keys, [] if none),
    or None if the channel is not in the cache and has no known parent to judge by.

    A post needs its text, embeds and a chart file; in a thread it needs Send Messages in
    Threads, and in a forum Send Messages is what Discord calls Create Posts.
    """
    target = guild.get_channel_or_thread(channel_id)
    thread = isinstance(target, discord.Thread)
    if target is None and parent_id is not None:
        target, thread = guild.get_channel(parent_id), True  # threads share their parent's rights
    if target is None or isinstance(target, discord.CategoryChannel):
        return None
    perms = target.permissions_for(guild.me)
    if not perms.view_channel:
        return ["digest-permission-view"]
    if thread:
        needed = [("send_messages_in_threads", "digest-permission-send-threads")]
    elif isinstance(target, discord.ForumChannel):
        needed = [("send_messages", "digest-permission-create-posts")]
    else:
        needed = [("send_messages", "digest-permission-send")]
    needed += [
        ("embed_links", "digest-permission-embed"),
        ("attach_files", "digest-permission-attach"),
    ]
    return [key for flag, key in needed if not getattr(perms, flag)]


def check_can_post(
    guild: discord.Guild, channel: AnyChannel, strings: Strings, language: Language
) -> None:
    """Refuse a channel picked as an option where Laurel could not post."""
    parent = channel.parent_id if isinstance(channel, app_commands.AppCommandThread) else None
    missing = bot_missing_permissions(guild, channel.id, parent)
    _refuse(
        missing if missing is not None else ["digest-permission-view"],
        channel.id,
        strings,
        language,
    )


def check_still_can_post(
    guild: discord.Guild, channel_id: int, strings: Strings, language: Language
) -> None:
    """Refuse a stored digest's channel where Laurel could not post, as far as the cache shows.

    A thread out of the cache is let through: sending will tell, and pause the digest if need be.
    """
    _refuse(bot_missing_permissions(guild, channel_id) or [], channel_id, strings, language)


def _refuse(missing: list[str], channel_id: int, strings: Strings, language: Language) -> None:
    if missing:
        separator = strings.text("digest-permission-separator", language)
        names = separator.join(f"**{strings.text(key, language)}**" for key in missing)
        raise UserError(
            "digest-error-bot-cannot-post", channel=f"<#{channel_id}>", permissions=names
        )


def digest_filter(
    venue: str | None,
    kind: AwardKind | None,
    year_from: int | None,
    year_to: int | None,
    area: ResearchArea | None = None,
) -> DigestFilter:
    if year_from is not None and year_to is not None and year_from > year_to:
        raise UserError("digest-error-years", start=year_from, end=year_to)
    return DigestFilter(venue=venue, kind=kind, year_from=year_from, year_to=year_to, area=area)


def schedule(
    usual: Cadence,
    cadence: Cadence | None,
    days: frozenset[int] | None,
    strings: Strings,
    language: Language,
) -> tuple[Cadence, frozenset[int]]:
    """The cadence and days a subscription gets from what was given and its theme's `usual`."""
    if cadence is None:
        several = days is not None and len(days) > 1
        cadence = Cadence.DAILY if several else usual
    if days is None:
        days = ALL_DAYS if cadence == Cadence.DAILY else frozenset({MONDAY})
    if cadence == Cadence.WEEKLY and len(days) != 1:
        raise UserError("digest-error-weekly-days", days=days_label(days, strings, language))
    return cadence, days


async def check_filter_matches(
    editions: EditionRepository,
    papers: PaperRepository,
    theme: ThemeSpec,
    filters: DigestFilter,
    strings: Strings,
    language: Language,
) -> None:
    """Refuse filters under which the catalogue has no award at all (of the theme's kind).

    A batching theme (new awards) is the exception: its filter may wait for awards that don't
    exist yet.
    """
    if not theme.cycling:
        return
    venues = await editions.venues()
    keys = [filters.venue] if filters.venue else [v.key for v in venues]
    wanted = theme.award_kind
    if filters.area is not None:  # areas are the papers', not in the award tallies
        if await papers.ids(
            venue=filters.venue,
            kind=wanted or filters.kind,
            area=filters.area,
            first=filters.year_from,
            last=filters.year_to,
        ):
            return
        keys = []
    for key in keys:
        for tally in await editions.award_tallies(key):
            if _matches(filters, wanted, tally.kind, tally.year) and tally.count > 0:
                return
    names = {v.key: v.name for v in venues}
    described = filters_text(filters, names, strings, language)
    if wanted is not None:
        described = f"{strings.text('awards-kind-test-of-time', language)} · {described}"
    raise UserError("digest-error-no-match", filters=described)


def _matches(filters: DigestFilter, wanted: AwardKind | None, kind: AwardKind, year: int) -> bool:
    if filters.kind is not None and kind != filters.kind:
        return False
    if wanted is not None and kind != wanted:
        return False
    if filters.year_from is not None and year < filters.year_from:
        return False
    return filters.year_to is None or year <= filters.year_to


def check_role(role: discord.Role | None) -> None:
    if role is not None and role.is_default():
        raise UserError("digest-error-everyone")


def role_note(
    guild: discord.Guild,
    channel_id: int,
    role: discord.Role | None,
    strings: Strings,
    language: Language,
) -> str:
    """A warning line when the role will be named but not notified, or "" when it will be.

    Discord notifies a role only if it is mentionable or the sender may mention all roles.
    """
    if role is None or role.mentionable:
        return ""
    channel = guild.get_channel_or_thread(channel_id)
    if channel is not None and channel.permissions_for(guild.me).mention_everyone:
        return ""
    return "\n" + strings.text("digest-role-silent", language, role=role.mention)


def edited_filters(
    old: DigestFilter,
    clear: app_commands.Choice[str] | None,
    venue: Venue | None,
    kind: app_commands.Choice[str] | None,
    year_from: int | None,
    year_to: int | None,
    area: ResearchArea | None = None,
) -> DigestFilter:
    """The filters after an edit: what was given, over what was kept (unless cleared)."""
    base = DigestFilter() if clear is not None and clear.value in ("filters", "all") else old
    return digest_filter(
        venue.key if venue is not None else base.venue,
        kind_of(kind) if kind is not None else base.kind,
        year_from if year_from is not None else base.year_from,
        year_to if year_to is not None else base.year_to,
        area if area is not None else base.area,
    )
