from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.render import embeds
from bot.render.embeds import Field, build_embed


def _total(embed_dict: dict[str, object]) -> int:
    total = len(str(embed_dict.get("title", ""))) + len(str(embed_dict.get("description", "")))
    for field in embed_dict.get("fields", []):  # type: ignore[attr-defined]
        total += len(field["name"]) + len(field["value"])
    footer = embed_dict.get("footer")
    if isinstance(footer, dict):
        total += len(footer.get("text", ""))
    return total


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
    ).to_dict()
    assert len(embed["title"]) <= embeds.TITLE
    assert len(embed.get("description", "")) <= embeds.DESCRIPTION
    assert len(embed.get("fields", [])) <= embeds.FIELDS
    for field in embed.get("fields", []):
        assert len(field["name"]) <= embeds.FIELD_NAME
        assert len(field["value"]) <= embeds.FIELD_VALUE
    assert _total(embed) <= embeds.TOTAL  # type: ignore[arg-type]


def test_short_content_is_kept_whole() -> None:
    embed = build_embed(title="T", description="D", fields=[Field("a", "b", inline=True)])
    assert embed.to_dict()["fields"] == [{"name": "a", "value": "b", "inline": True}]
