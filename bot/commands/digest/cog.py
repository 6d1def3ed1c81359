"""/digest: server admins subscribe channels to themed posts, and look after them.

Every answer is ephemeral: it concerns the server's setup, not its conversation. Subscribing
never posts: the first post comes at the next scheduled time, or with /digest post-now.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.commands.digest.checks import (
    admin_guild,
    check_can_post,
    check_filter_matches,
    check_role,
    check_still_can_post,
    digest_filter,
    edited_filters,
    role_note,
    schedule,
)
from bot.commands.digest.options import (
    DaysOption,
    DigestChannel,
    SubscriptionOption,
    TimeOption,
    TimeZoneOption,
)
from bot.commands.options import (
    LANGUAGE_CHOICES,
    AreaOption,
    VenueOption,
    Year,
    filter_options,
    kind_of,
)
from bot.commands.parts import Parts
from bot.commands.writes import answer, before_write
from bot.digests.subscriptions import Duplicate
from bot.digests.themes import ThemeRegistry
from bot.domain.models import Language
from bot.domain.subscriptions import (
    MAX_SUBSCRIPTIONS_PER_GUILD,
    Cadence,
    Subscription,
)
from bot.errors import UserError
from bot.render import digest_admin as render
from bot.render.i18n import language_of

DEFAULT_TIME = dt.time(9)
DEFAULT_ZONE = "UTC"

# The shipped themes, one module each (bot/digests/themes): a choice each, in their order.
THEME_CHOICES = [
    app_commands.Choice(name=_(spec.label), value=spec.name) for spec in ThemeRegistry.shipped()
]
CADENCE_CHOICES = [
    app_commands.Choice(name=_("daily"), value=Cadence.DAILY.value),
    app_commands.Choice(name=_("weekly"), value=Cadence.WEEKLY.value),
]
CLEAR_CHOICES = [
    app_commands.Choice(name=_("role mention"), value="role"),
    app_commands.Choice(name=_("filters"), value="filters"),
    app_commands.Choice(name=_("role mention and filters"), value="all"),
]
SUBSCRIPTION = _("The digest, by number (start typing to pick)")


# Hidden from members without Manage Server unless a server says otherwise (admin_guild checks
# again at run time); never in DMs, where there is no server to manage.
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Digest(
    commands.GroupCog,
    group_name=_("digest"),
    group_description=_("Scheduled posts of awarded papers in this server's channels"),
):
    def __init__(self, parts: Parts) -> None:
        self._s = parts
        super().__init__()

    @app_commands.command(
        name=_("subscribe"), description=_("Post a themed digest to a channel on a schedule")
    )
    @filter_options
    @app_commands.describe(
        channel=_("Where to post: a text or announcement channel, a thread, or a forum"),
        theme=_("What to post"),
        time=_("Time of day, HH:MM on a 24-hour clock (09:00 if left out)"),
        days=_("Which days, e.g. mon,wed,fri or weekdays (the theme's usual if left out)"),
        cadence=_("Daily or weekly (the theme's usual if left out)"),
        timezone=_("An IANA time zone such as Europe/Berlin (UTC if left out)"),
        language=_("The language of the posts (the server's if left out)"),
        role=_("A role to mention in each post (none if left out)"),
    )
    @app_commands.choices(theme=THEME_CHOICES, cadence=CADENCE_CHOICES, language=LANGUAGE_CHOICES)
    async def subscribe(
        self,
        interaction: discord.Interaction,
        channel: DigestChannel,
        theme: app_commands.Choice[str],
        time: TimeOption | None = None,
        days: DaysOption | None = None,
        cadence: app_commands.Choice[str] | None = None,
        timezone: TimeZoneOption | None = None,
        language: app_commands.Choice[str] | None = None,
        role: discord.Role | None = None,
        venue: VenueOption | None = None,
        kind: app_commands.Choice[str] | None = None,
        year_from: Year | None = None,
        year_to: Year | None = None,
        area: AreaOption | None = None,
    ) -> None:
        guild, speaks = admin_guild(interaction), language_of(interaction.locale)
        await self._s.subscription_service.check_room(guild.id)  # first: nothing else matters then
        chosen = self._s.digests.themes[theme.value]
        filters = digest_filter(
            venue.key if venue else None, kind_of(kind), year_from, year_to, area
        )
        every = Cadence(cadence.value) if cadence else None
        every, days = schedule(chosen.cadence, every, days, self._s.strings, speaks)
        check_role(role)
        check_can_post(guild, channel, self._s.strings, speaks)
        await check_filter_matches(
            self._s.editions, self._s.papers, chosen, filters, self._s.strings, speaks
        )
        sub = Subscription(
            guild_id=guild.id,
            channel_id=channel.id,
            theme=chosen.name,
            cadence=every,
            days=days,
            time=time or DEFAULT_TIME,
            timezone=timezone or DEFAULT_ZONE,
            language=language.value if language else language_of(interaction.guild_locale),
            role_id=role.id if role else None,
            filters=filters,
            created_by=interaction.user.id,
            created_at=self._s.digests.now(),  # the schedule's clock, fake in tests
        )
        await before_write(interaction)
        stored = await self._s.subscription_service.subscribe(sub, self._duplicate(speaks))
        first = self._s.digests.next_post(stored)
        text = render.subscribed_text(stored, first, await self._venues(), self._s.strings, speaks)
        if language is None:  # taken from the server's preferred locale: say so (issue 25)
            chosen_language = self._s.strings.text(f"digest-language-{stored.language}", speaks)
            text += "\n" + self._s.strings.text(
                "digest-language-default", speaks, language=chosen_language
            )
        text += role_note(guild, stored.channel_id, role, self._s.strings, speaks)
        await answer(interaction, content=text)

    @app_commands.command(
        name=_("list"), description=_("This server's digests and when each posts next")
    )
    async def list_(self, interaction: discord.Interaction) -> None:
        guild, speaks = admin_guild(interaction), language_of(interaction.locale)
        subs = await self._s.subscription_service.in_guild(guild.id)
        listed = [
            render.Listed(s, await self._next(s), await self._s.digests.last_code(s)) for s in subs
        ]
        first, *more = render.list_embeds(
            listed,
            guild.name,
            MAX_SUBSCRIPTIONS_PER_GUILD,
            await self._venues(),
            self._s.strings,
            speaks,
        )
        await interaction.response.send_message(embed=first, ephemeral=True)
        for embed in more:  # each message holds 6,000 characters of embeds at most
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(
        name=_("pause"), description=_("Stop a digest from posting until it is resumed")
    )
    @app_commands.describe(subscription=SUBSCRIPTION)
    async def pause(
        self, interaction: discord.Interaction, subscription: SubscriptionOption
    ) -> None:
        admin_guild(interaction)  # as the subscription option did: checked where it is used
        speaks = language_of(interaction.locale)
        heading = render.heading(subscription, self._s.strings, speaks)
        if subscription.status == "paused":
            text = self._s.strings.text("digest-already-paused", speaks, heading=heading)
        else:
            assert subscription.id is not None
            await before_write(interaction)
            paused = await self._s.subscription_service.pause(subscription.id)
            text = render.paused_text(paused, self._s.strings, speaks)
        await answer(interaction, content=text)

    @app_commands.command(name=_("resume"), description=_("Start a paused digest again"))
    @app_commands.describe(subscription=SUBSCRIPTION)
    async def resume(
        self, interaction: discord.Interaction, subscription: SubscriptionOption
    ) -> None:
        guild, speaks = admin_guild(interaction), language_of(interaction.locale)
        if subscription.status == "active":
            next_post = await self._s.digests.next_due(subscription)
            heading = render.heading(subscription, self._s.strings, speaks)
            text = self._s.strings.text(
                "digest-already-active", speaks, heading=heading, when=render.when(next_post)
            )
        else:
            assert subscription.id is not None
            gone = guild.get_channel_or_thread(subscription.channel_id) is None
            if gone and subscription.paused_reason == "not-found":
                heading = render.heading(subscription, self._s.strings, speaks)
                raise UserError("digest-error-channel-gone", heading=heading)
            check_still_can_post(guild, subscription.channel_id, self._s.strings, speaks)
            await before_write(interaction)
            resumed = await self._s.subscription_service.resume(subscription.id)
            next_post = await self._s.digests.next_due(resumed)
            text = render.resumed_text(resumed, next_post, self._s.strings, speaks)
        await answer(interaction, content=text)

    @app_commands.command(
        name=_("edit"),
        description=_("Change a digest's channel, theme, schedule, language, role or filters"),
    )
    @filter_options
    @app_commands.describe(
        subscription=SUBSCRIPTION,
        channel=_("New channel"),
        theme=_("New theme"),
        time=_("New time of day, HH:MM on a 24-hour clock"),
        days=_("New days, e.g. mon,wed,fri or weekdays"),
        cadence=_("New cadence: daily or weekly"),
        timezone=_("New IANA time zone such as Europe/Berlin"),
        language=_("New language of the posts"),
        role=_("New role to mention in each post"),
        clear=_("Remove the role mention or the filters"),
    )
    @app_commands.choices(
        theme=THEME_CHOICES,
        cadence=CADENCE_CHOICES,
        language=LANGUAGE_CHOICES,
        clear=CLEAR_CHOICES,
    )
    async def edit(
        self,
        interaction: discord.Interaction,
        subscription: SubscriptionOption,
        channel: DigestChannel | None = None,
        theme: app_commands.Choice[str] | None = None,
        time: TimeOption | None = None,
        days: DaysOption | None = None,
        cadence: app_commands.Choice[str] | None = None,
        timezone: TimeZoneOption | None = None,
        language: app_commands.Choice[str] | None = None,
        role: discord.Role | None = None,
        venue: VenueOption | None = None,
        kind: app_commands.Choice[str] | None = None,
        year_from: Year | None = None,
        year_to: Year | None = None,
        area: AreaOption | None = None,
        clear: app_commands.Choice[str] | None = None,
    ) -> None:
        guild, speaks = admin_guild(interaction), language_of(interaction.locale)
        given = [channel, theme, time, days, cadence, timezone, language, role, venue, kind]
        if all(v is None for v in [*given, year_from, year_to, area, clear]):
            raise UserError("digest-edit-nothing")
        old, strings = subscription, self._s.strings
        chosen = self._s.digests.themes[theme.value if theme else old.theme]
        filters = edited_filters(old.filters, clear, venue, kind, year_from, year_to, area)
        every = Cadence(cadence.value) if cadence else None
        if days is None and every in (None, old.cadence):
            every, days = old.cadence, old.days  # a new cadence alone takes its default days
        every, days = schedule(chosen.cadence, every, days, strings, speaks)
        check_role(role)
        where = channel.id if channel else old.channel_id
        if channel is not None:
            check_can_post(guild, channel, strings, speaks)
        if filters != old.filters or chosen.name != old.theme:
            await check_filter_matches(
                self._s.editions, self._s.papers, chosen, filters, strings, speaks
            )
        clear_role = clear is not None and clear.value in ("role", "all")
        changes: dict[str, Any] = {
            "channel_id": where,
            "theme": chosen.name,
            "cadence": every,
            "days": days,
            "time": time or old.time,
            "timezone": timezone or old.timezone,
            "language": language.value if language else old.language,
            "role_id": role.id if role else (None if clear_role else old.role_id),
            "filters": filters,
        }
        await before_write(interaction)
        updated = await self._s.subscription_service.edit(
            old, Subscription.model_validate(old.model_dump() | changes), self._duplicate(speaks)
        )
        text = render.edited_text(
            updated, await self._next(updated), await self._venues(), strings, speaks
        )
        text += role_note(guild, updated.channel_id, role, strings, speaks)
        await answer(interaction, content=text)

    @app_commands.command(name=_("remove"), description=_("Delete a digest for good"))
    @app_commands.describe(subscription=SUBSCRIPTION)
    async def remove(
        self, interaction: discord.Interaction, subscription: SubscriptionOption
    ) -> None:
        admin_guild(interaction)  # as the subscription option did: checked where it is used
        speaks = language_of(interaction.locale)
        assert subscription.id is not None
        await before_write(interaction)
        await self._s.subscription_service.remove(subscription.id)
        text = render.removed_text(subscription, self._s.strings, speaks)
        await answer(interaction, content=text)

    @app_commands.command(
        name=_("preview"), description=_("See a digest's next post, privately; nothing is sent")
    )
    @app_commands.describe(subscription=SUBSCRIPTION)
    async def preview(
        self, interaction: discord.Interaction, subscription: SubscriptionOption
    ) -> None:
        admin_guild(interaction)  # as the subscription option did: checked where it is used
        speaks = language_of(interaction.locale)
        # Rendering may draw a chart: answer "thinking…" (privately) before the 3 s run out.
        await interaction.response.defer(ephemeral=True, thinking=True)
        post = await self._s.digests.preview(subscription)
        content = render.preview_content(
            subscription, await self._next(subscription), post.content, self._s.strings, speaks
        )
        files = [discord.File(io.BytesIO(data), filename=name) for name, data in post.files]
        await interaction.followup.send(
            content,
            embeds=post.embeds,
            files=files,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name=_("post-now"), description=_("Post a digest's next post now"))
    @app_commands.describe(subscription=SUBSCRIPTION)
    async def post_now(
        self, interaction: discord.Interaction, subscription: SubscriptionOption
    ) -> None:
        guild, speaks = admin_guild(interaction), language_of(interaction.locale)
        check_still_can_post(guild, subscription.channel_id, self._s.strings, speaks)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self._s.digests.post_now(subscription, requested_by=interaction.user.id)
        forum = isinstance(guild.get_channel(subscription.channel_id), discord.ForumChannel)
        text = render.posted_text(
            subscription,
            await self._outcome(subscription, result.status),
            render.post_link(guild.id, subscription.channel_id, result.message_id, forum=forum),
            result.error,
            self._s.strings,
            speaks,
            day=result.period.shown if result.period is not None else "",
            next_post=await self._next(subscription),
        )
        await interaction.followup.send(text, ephemeral=True)

    async def _outcome(self, sub: Subscription, status: str) -> str:
        """The post's status, told as "paused" when Discord refused the channel outright."""
        if status != "failed" or sub.id is None:
            return status
        now = await self._s.subscription_service.get(sub.id)
        gone = now is not None and now.status == "paused" and now.paused_reason != "manual"
        return "paused" if gone else status

    def _duplicate(self, speaks: Language) -> Duplicate:
        def refused(twin: Subscription) -> UserError:
            heading = render.heading(twin, self._s.strings, speaks)
            return UserError("digest-error-duplicate", heading=heading)

        return refused

    async def _next(self, sub: Subscription) -> dt.datetime | None:
        """When its next scheduled post goes out: past those `/digest post-now` made early."""
        return await self._s.digests.next_due(sub) if sub.status == "active" else None

    async def _venues(self) -> dict[str, str]:
        return {v.key: v.name for v in await self._s.editions.venues()}
