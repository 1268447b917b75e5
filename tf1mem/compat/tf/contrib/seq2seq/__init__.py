"""``tf.contrib.seq2seq``: decoders and helpers, attention, beam search (TF 1.2-1.15).

``decoder.py`` (helpers including scheduled sampling, ``BasicDecoder``,
``dynamic_decode``, ``sequence_loss``, ``tile_batch``), ``attention.py`` (Bahdanau and
Luong attention, ``AttentionWrapper``, ``hardmax``) and ``beam_search.py``
(``BeamSearchDecoder``, ``gather_tree``).
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'Helper': '.decoder',
    'TrainingHelper': '.decoder',
    'GreedyEmbeddingHelper': '.decoder',
    'SampleEmbeddingHelper': '.decoder',
    'ScheduledEmbeddingTrainingHelper': '.decoder',
    'ScheduledOutputTrainingHelper': '.decoder',
    'InferenceHelper': '.decoder',
    'CustomHelper': '.decoder',
    'Decoder': '.decoder',
    'BasicDecoder': '.decoder',
    'BasicDecoderOutput': '.decoder',
    'dynamic_decode': '.decoder',
    'sequence_loss': '.decoder',
    'tile_batch': '.decoder',
    'AttentionMechanism': '.attention',
    'BahdanauAttention': '.attention',
    'LuongAttention': '.attention',
    'AttentionWrapper': '.attention',
    'AttentionWrapperState': '.attention',
    'hardmax': '.attention',
    'BeamSearchDecoder': '.beam_search',
    'BeamSearchDecoderOutput': '.beam_search',
    'BeamSearchDecoderState': '.beam_search',
    'FinalBeamSearchDecoderOutput': '.beam_search',
    'gather_tree': '.beam_search',
    'gather_tree_from_array': '.beam_search',
})
