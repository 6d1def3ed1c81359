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
