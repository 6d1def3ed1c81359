"""The research areas a paper may be filed under: the ten of awesome-ai-best-papers' taxonomy.

The taxonomy (`paper_taxonomy.csv`, CC0) gives each awarded paper one broad primary area. The
names are kept exactly as the taxonomy spells them, so the bundled data and the dataset join
on them; readers see localized names from the locale files.
"""

from __future__ import annotations

from enum import StrEnum


class ResearchArea(StrEnum):
    NLP_LANGUAGE = "NLP & Language"
    COMPUTER_VISION = "Computer Vision"
    MULTIMODAL_EMBODIED = "Multimodal & Embodied AI"
    SPEECH_AUDIO = "Speech & Audio"
    REINFORCEMENT_LEARNING = "Reinforcement Learning & Decision Making"
    THEORY_OPTIMIZATION = "ML Theory & Optimization"
    GRAPHS_STRUCTURED = "Graphs & Structured Learning"
    RESPONSIBLE_AI = "Responsible AI & Privacy"
    SCIENTIFIC_ML = "Scientific ML & Applications"
    GENERAL_ML = "General ML & Representation Learning"


RESEARCH_AREAS: tuple[str, ...] = tuple(area.value for area in ResearchArea)
