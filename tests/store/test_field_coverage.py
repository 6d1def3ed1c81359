"""What `laurel stats` counts per field, read from the store on both backends (issue 23)."""

from __future__ import annotations

from bot.domain.areas import OUR_CLASSIFICATION
from bot.domain.models import Source
from bot.store.catalog.coverage import field_coverage
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch

READ = "https://arxiv.org/abs/1502.05477"


async def test_each_field_is_counted_over_the_live_papers(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            award(
                "Summarised",
                arxiv="1502.05477",
                summaries={"en": "Trust regions.", "zh-TW": "信賴域。", "zh-CN": "信赖域。"},
                area="Reinforcement Learning & Decision Making",
                task="Reinforcement Learning & Planning",
                authors=["John Schulman", "Sergey Levine"],
                affiliations=["University of California, Berkeley"],
                links={"code": "https://github.com/joschu/modular_rl"},
                sources=[
                    Source(url=READ, covers=("summaries.en", "summaries.zh-TW")),
                    Source(url=READ, document=OUR_CLASSIFICATION, covers=("area",)),
                ],
            ),
            award("Bare", authors=["Ada Lovelace", "et al."], authors_incomplete=True),
            award("Removed", arxiv="1502.00001", summaries={"en": "Gone."}),
        ),
        actor="bundled data",
        policy="update",
    )
    removed = await db.fetchone("SELECT id FROM papers WHERE title = 'Removed'")
    assert removed is not None
    await catalog.remove("paper", int(removed["id"]), actor="d:1")
    found = await field_coverage(db)
    assert found.papers == 2
    assert found.summaries == {"en": 1, "zh-TW": 1, "zh-CN": 1}
    assert found.summary_sources == {"en": 1, "zh-TW": 1, "zh-CN": 0}
    assert (found.all_summaries, found.area, found.area_ours, found.task) == (1, 1, 1, 1)
    assert (found.code, found.authors, found.authors_cut_short, found.affiliations) == (1, 2, 1, 1)
    assert found.share(found.area) == 0.5
