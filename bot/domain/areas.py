"""The research areas a paper may be filed under: the ten of awesome-ai-best-papers' taxonomy.

The taxonomy (`paper_taxonomy.csv`, CC0) gives each awarded paper one broad primary area. The
names are kept exactly as the taxonomy spells them, so the bundled data and the dataset join
on them; readers see localized names from the locale files.
"""

from __future__ import annotations

import re
import unicodedata
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


class ResearchTask(StrEnum):
    """The taxonomy's task categories (`paper_taxonomy.csv` column `task`), spelled as it does."""

    LLM_ANALYSIS = "LLM Analysis & Evaluation"
    LANGUAGE_MODELING = "Language Modeling & Generation"
    LANGUAGE_UNDERSTANDING = "Language Understanding & Linguistics"
    REASONING = "Reasoning & Knowledge"
    RETRIEVAL = "Retrieval & Search"
    MULTIMODAL = "Multimodal & Vision-Language"
    SPEECH_AUDIO = "Speech & Audio"
    VISUAL_RECOGNITION = "Visual Recognition & Representation"
    VISION_3D = "3D Vision & Reconstruction"
    IMAGE_VIDEO_GENERATION = "Image & Video Generation"
    GENERATIVE_MODELING = "Generative Modeling"
    RL_PLANNING = "Reinforcement Learning & Planning"
    GRAPHS = "Graph & Structured Learning"
    META_LEARNING = "Meta-Learning & Adaptation"
    REPRESENTATION = "Representation Learning"
    EFFICIENCY = "Model Efficiency & Architecture"
    OPTIMIZATION = "Optimization & Generalization"
    INFERENCE = "Probabilistic Inference & Sampling"
    SAFETY = "Safety, Fairness & Privacy"
    SCIENCE = "Scientific Discovery & Simulation"
    CAUSAL = "Causal Learning"
    ROBUSTNESS = "Robustness & Domain Adaptation"
    INTERPRETABILITY = "Interpretability & Explainability"
    MODEL_EDITING = "Model Editing & Adaptation"
    # In the CSV though not in its README's list.
    EVALUATION = "Evaluation & Benchmarking"


RESEARCH_TASKS: tuple[str, ...] = tuple(task.value for task in ResearchTask)

# The document of the source that vouches for an area or task we read from the paper ourselves,
# where the taxonomy gives none: curators tell it from the taxonomy's by this name.
OUR_CLASSIFICATION = "Laurel's classification, read from the paper's abstract or page"


# Other names an area goes by, beside its taxonomy name and its localized names (the locale
# files): short forms and the field's usual words, in English and both Chinese scripts. Search
# indexes them with each paper of the area; `area:` accepts them (issue 27).
AREA_NAMES: dict[ResearchArea, tuple[str, ...]] = {
    ResearchArea.NLP_LANGUAGE: (
        "NLP", "natural language processing", "language", "自然語言處理", "自然语言处理",
    ),
    ResearchArea.COMPUTER_VISION: ("CV", "vision", "computer vision", "電腦視覺", "计算机视觉"),
    ResearchArea.MULTIMODAL_EMBODIED: (
        "multimodal", "embodied AI", "多模態與具身智慧", "多模态与具身智能",
    ),
    ResearchArea.SPEECH_AUDIO: ("speech", "audio", "語音與音訊", "语音与音频"),
    ResearchArea.REINFORCEMENT_LEARNING: (
        "RL", "reinforcement learning", "decision making", "強化學習與決策", "强化学习与决策",
        "強化學習", "强化学习",
    ),
    ResearchArea.THEORY_OPTIMIZATION: (
        "theory", "optimization", "ML theory", "機器學習理論與最佳化", "机器学习理论与优化",
    ),
    ResearchArea.GRAPHS_STRUCTURED: (
        "graphs", "graph learning", "圖與結構化學習", "图与结构化学习",
    ),
    ResearchArea.RESPONSIBLE_AI: (
        "responsible AI", "privacy", "fairness", "負責任 AI 與隱私", "负责任 AI 与隐私",
    ),
    ResearchArea.SCIENTIFIC_ML: (
        "scientific ML", "AI for science", "科學機器學習與應用", "科学机器学习与应用",
    ),
    ResearchArea.GENERAL_ML: (
        "general ML", "representation learning", "通用機器學習與表徵學習", "通用机器学习与表示学习",
    ),
}  # fmt: skip


def area_key_of(text: str) -> str:
    """How area names are compared: case, accents, `&`/`and` and spacing ignored."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    folded = re.sub(r"\s*(?:&|\band\b|與|与)\s*", " and ", folded)
    return re.sub(r"[\s\-_·]+", " ", folded).strip()


def area_named(
    text: str, localized: dict[ResearchArea, tuple[str, ...]] | None = None
) -> ResearchArea | None:
    """The area `text` names: its taxonomy name, enum name, any of AREA_NAMES, or any of
    `localized` (the locale files' names), case- and accent-insensitive; None if none does."""
    wanted = area_key_of(text)
    if not wanted:
        return None
    for area in ResearchArea:
        names = (area.value, area.name, *AREA_NAMES[area], *(localized or {}).get(area, ()))
        if wanted in {area_key_of(name) for name in names}:
            return area
    return None
