from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.render import embeds
from bot.render.embeds import Field, build_embed


@given(
    title=st.text(min_size=1, max_size=400),
    description=st.text(max_size=5000),
    fields=st.lists(
        st.tuples(st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=1500)),
        max_size=30,
    ),
    footer=st.text(max_size=2100),
)
def test_every_embed_is_within_discords_limits(
    title: str, description: str, fields: list[tuple[str, str]], footer: str
) -> None:
    embed = build_embed(
        title=title,
        description=description or None,
        fields=[Field(name, value) for name, value in fields],
        footer=footer or None,
    )
    assert len(embed.title or "") <= embeds.TITLE
    assert len(embed.description or "") <= embeds.DESCRIPTION
    assert len(embed.fields) <= embeds.FIELDS
    for field in embed.fields:
        assert len(field.name or "") <= embeds.FIELD_NAME
        assert len(field.value or "") <= embeds.FIELD_VALUE
    assert len(embed.footer.text or "") <= embeds.FOOTER
    assert len(embed) <= embeds.TOTAL  # discord.py counts what Discord counts


def test_short_content_is_kept_whole() -> None:
    embed = build_embed(
        title="T", description="D", fields=[Field("a", "b", inline=True)], footer="F"
    )
    assert (embed.title, embed.description, embed.footer.text) == ("T", "D", "F")
    ((name, value, inline),) = [(f.name, f.value, f.inline) for f in embed.fields]
    assert (name, value, inline) == ("a", "b", True)
