"""``tf.contrib.seq2seq``'s decoder API (TF 1.2-1.15): helpers, decoders, loss, tile_batch.

This module owns our implementation of the subset that seq2seq scripts of that time
used: the decoder loop ``dynamic_decode``, ``BasicDecoder`` / ``BasicDecoderOutput``,
the helpers ``TrainingHelper``, ``GreedyEmbeddingHelper``, ``SampleEmbeddingHelper``,
the scheduled-sampling ``ScheduledEmbeddingTrainingHelper`` and
``ScheduledOutputTrainingHelper``, ``InferenceHelper`` and ``CustomHelper`` (with the ``Helper`` and ``Decoder`` bases for
user subclasses), ``sequence_loss`` and ``tile_batch``.

Guarantees: TF1's graph structure and names (the decoder runs in variable scope
``decoder``, so a cell's variables are ``decoder/<cell>/kernel`` as in TF1), TF1's
shapes and dtypes (``sample_id`` int32, outputs batch-major unless
``output_time_major``), TF1's loss normalisations (weights sum plus 1e-12), so a
script gives TF 1.15.5's numbers (the corpus ``seq2seq_toy.py`` checks it).
The attention mechanisms and wrapper (``attention.py``) and the beam-search decoder
(``beam_search.py``) are served beside these as ``tf.contrib.seq2seq``. TensorFlow
is imported only when a function runs.
"""

import abc
import collections

from tf1mem._tf import v1 as _v1

__all__ = [
    "Helper", "TrainingHelper", "GreedyEmbeddingHelper", "SampleEmbeddingHelper",
    "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper",
    "InferenceHelper", "CustomHelper", "Decoder", "BasicDecoder", "BasicDecoderOutput",
    "dynamic_decode",
    "sequence_loss", "tile_batch",
]


def _transpose_batch_time(x):
    tf = _v1()
    x = tf.convert_to_tensor(x)
    ndims = x.get_shape().ndims
    if ndims is not None and ndims < 2:
        return x
    perm = tf.concat(([1, 0], tf.range(2, tf.rank(x))), axis=0)
    out = tf.transpose(x, perm)
    if ndims is not None:
        shape = x.get_shape()
        out.set_shape(tf.TensorShape([shape[1], shape[0]]).concatenate(shape[2:]))
    return out


def _unstack_ta(inp):
    tf = _v1()
    return tf.TensorArray(dtype=inp.dtype, size=tf.shape(inp)[0],
                          element_shape=inp.get_shape()[1:]).unstack(inp)


def _embedding_fn(embedding):
    tf = _v1()
    if callable(embedding):
        return embedding
    params = tf.convert_to_tensor(embedding, name="embedding")
    return lambda ids: tf.nn.embedding_lookup(params, ids)


# --- helpers --------------------------------------------------------------------------

class Helper(abc.ABC):
    """How a decoder gets each step's input and sample (TF1's ``seq2seq.Helper``)."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        """The batch size, a scalar int32 tensor."""

    @property
    def sample_ids_shape(self):
        return _v1().TensorShape([])

    @property
    def sample_ids_dtype(self):
        return _v1().int32

    @abc.abstractmethod
    def initialize(self, name=None):
        """Returns ``(initial_finished, initial_inputs)``."""

    @abc.abstractmethod
    def sample(self, time, outputs, state, name=None):
        """Returns the sample ids of this step."""

    @abc.abstractmethod
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        """Returns ``(finished, next_inputs, next_state)``."""


class TrainingHelper(Helper):
    """Teacher forcing: step ``t`` reads ``inputs[:, t]``; finished at ``sequence_length``.

    Args:
      inputs: [batch, time, ...] (or [time, batch, ...] with ``time_major``), or a
        nested structure of them.
      sequence_length: [batch] int lengths.
    """

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        tf = _v1()
        with tf.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = tf.nest.map_structure(tf.convert_to_tensor, inputs)
            self._inputs = inputs
            if not time_major:
                inputs = tf.nest.map_structure(_transpose_batch_time, inputs)
            self._input_tas = tf.nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = tf.convert_to_tensor(sequence_length,
                                                         name="sequence_length")
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError(f"TrainingHelper: sequence_length must be a vector, got "
                                 f"shape {self._sequence_length.get_shape()}")
            self._zero_inputs = tf.nest.map_structure(
                lambda inp: tf.zeros_like(inp[0, :]), inputs)
            self._batch_size = tf.size(self._sequence_length)

    @property
    def inputs(self):
        return self._inputs

    @property
    def sequence_length(self):
        return self._sequence_length

    @property
    def batch_size(self):
        return self._batch_size

    def _read(self, time):
        tf = _v1()
        return tf.nest.map_structure(lambda ta: ta.read(time), self._input_tas)

    def initialize(self, name=None):
        tf = _v1()
        with tf.name_scope(name, "TrainingHelperInitialize"):
            finished = tf.equal(0, self._sequence_length)
            all_finished = tf.reduce_all(finished)
            next_inputs = tf.cond(all_finished, lambda: self._zero_inputs,
                                  lambda: self._read(0))
            return finished, next_inputs

    def sample(self, time, outputs, name=None, **unused_kwargs):
        tf = _v1()
        with tf.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        tf = _v1()
        with tf.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            all_finished = tf.reduce_all(finished)
            next_inputs = tf.cond(all_finished, lambda: self._zero_inputs,
                                  lambda: self._read(next_time))
            return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """Inference: each step feeds back the embedding of its argmax; stops at ``end_token``.

    Args:
      embedding: an embedding matrix, or a callable mapping ids to vectors.
      start_tokens: [batch] int32 ids of the first input.
      end_token: scalar int32 id that finishes a sequence.
    """

    def __init__(self, embedding, start_tokens, end_token):
        tf = _v1()
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32,
                                                  name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(self._start_tokens)
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self):
        return self._batch_size

    def initialize(self, name=None):
        tf = _v1()
        finished = tf.tile([False], [self._batch_size])
        return finished, self._start_inputs

    def sample(self, time, outputs, state, name=None):
        tf = _v1()
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        tf = _v1()
        finished = tf.equal(sample_ids, self._end_token)
        all_finished = tf.reduce_all(finished)
        next_inputs = tf.cond(all_finished, lambda: self._start_inputs,
                              lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """As :class:`GreedyEmbeddingHelper`, sampling each id from ``softmax(logits / T)``."""

    def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None,
                 seed=None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time, outputs, state, name=None):
        tf = _v1()
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        logits = outputs if self._softmax_temperature is None \
            else outputs / self._softmax_temperature
        return tf.cast(tf.reshape(tf.multinomial(logits, 1, seed=self._seed), [-1]), tf.int32)


def _sampling_probability(value):
    tf = _v1()
    prob = tf.convert_to_tensor(value, name="sampling_probability")
    if prob.get_shape().ndims not in (0, 1):
        raise ValueError(f"sampling_probability must be either a scalar or a vector (one per "
                         f"batch entry); got shape {prob.get_shape()}")
    return prob


def _coins(probability, batch_size, outputs, seed, dtype):
    """One Bernoulli(``probability``) draw per batch entry, made after ``outputs`` exist:
    so a decoder's steps draw in order and a seeded run repeats."""
    tf = _v1()
    coins = tf.distributions.Bernoulli(probs=probability, dtype=dtype)
    with tf.control_dependencies(tf.nest.flatten(outputs)):
        return coins.sample(sample_shape=batch_size, seed=seed)


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Scheduled sampling (Bengio et al. 2015): each step, with ``sampling_probability``
    per batch entry, the next input is the embedding of an id sampled from the step's
    logits instead of ``inputs[:, t + 1]``. Sample ids are -1 where the input was read.
    The coin flips of a step wait for that step's outputs, so a decoder's steps draw in
    order and a seeded run repeats (TF 1.15 let the loop's iterations draw in any order:
    its results changed from run to run).

    Args:
      inputs, sequence_length, time_major: as :class:`TrainingHelper`.
      embedding: an embedding matrix, or a callable mapping ids to vectors.
      sampling_probability: a scalar or [batch] float tensor in [0, 1].
      seed: op seed of the id sampling; scheduling_seed: of the coin flips.
    """

    def __init__(self, inputs, sequence_length, embedding, sampling_probability,
                 time_major=False, seed=None, scheduling_seed=None, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledEmbeddingSamplingWrapper",
                           [embedding, sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = _sampling_probability(sampling_probability)
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def sample(self, time, outputs, state, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledEmbeddingTrainingHelperSample",
                           [time, outputs, state]):
            chosen = _coins(self._sampling_probability, self.batch_size, outputs,
                            self._scheduling_seed, tf.bool)
            drawn = tf.distributions.Categorical(logits=outputs).sample(seed=self._seed)
            return tf.where(chosen, drawn, tf.fill([self.batch_size], -1))

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs",
                           [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)

            def sampled():
                sampling = sample_ids > -1
                embedded = self._embedding_fn(tf.maximum(sample_ids, 0))
                return tf.where(sampling, embedded, base_next_inputs)

            next_inputs = tf.cond(tf.reduce_all(finished), lambda: base_next_inputs,
                                  sampled)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """Scheduled sampling on outputs: each step, with ``sampling_probability`` per batch
    entry, the next input is the step's output (through ``next_inputs_fn`` when given,
    then joined with ``auxiliary_inputs[:, t + 1]``) instead of ``inputs[:, t + 1]``.
    Sample ids are int32 0 / 1 (as TF 1.15's): 1 where the output was fed back.
    """

    def __init__(self, inputs, sequence_length, sampling_probability, time_major=False,
                 seed=None, next_inputs_fn=None, auxiliary_inputs=None, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledOutputTrainingHelper",
                           [inputs, auxiliary_inputs, sampling_probability]):
            self._sampling_probability = _sampling_probability(sampling_probability)
            if auxiliary_inputs is None:
                joined = inputs
            else:
                inputs = tf.nest.map_structure(tf.convert_to_tensor, inputs)
                auxiliary_inputs = tf.nest.map_structure(tf.convert_to_tensor,
                                                         auxiliary_inputs)
                joined = tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), inputs,
                                               auxiliary_inputs)
                if not time_major:
                    auxiliary_inputs = tf.nest.map_structure(_transpose_batch_time,
                                                             auxiliary_inputs)
            self._auxiliary_input_tas = None if auxiliary_inputs is None else \
                tf.nest.map_structure(_unstack_ta, auxiliary_inputs)
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(inputs=joined, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def sample(self, time, outputs, state, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledOutputTrainingHelperSample",
                           [time, outputs, state]):
            return _coins(self._sampling_probability, self.batch_size, outputs, self._seed,
                          tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        tf = _v1()
        with tf.name_scope(name, "ScheduledOutputTrainingHelperNextInputs",
                           [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)
            sample_ids = tf.cast(sample_ids, tf.bool)

            def with_auxiliary(values, rows=None):
                if self._auxiliary_input_tas is None:
                    return values
                auxiliary = tf.nest.map_structure(lambda ta: ta.read(time + 1),
                                                  self._auxiliary_input_tas)
                if rows is not None:
                    auxiliary = tf.nest.map_structure(lambda a: tf.gather_nd(a, rows),
                                                      auxiliary)
                return tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), values,
                                             auxiliary)

            def sampled():
                if self._next_inputs_fn is None:
                    return tf.where(sample_ids, with_auxiliary(outputs), base_next_inputs)
                rows = tf.cast(tf.where(sample_ids), tf.int32)
                other_rows = tf.cast(tf.where(tf.logical_not(sample_ids)), tf.int32)
                fed_back = with_auxiliary(self._next_inputs_fn(tf.gather_nd(outputs, rows)),
                                          rows)
                shape = tf.shape(base_next_inputs)
                return (tf.scatter_nd(rows, fed_back, shape)
                        + tf.scatter_nd(other_rows, tf.gather_nd(base_next_inputs,
                                                                 other_rows), shape))

            skip = tf.logical_or(tf.reduce_all(finished),
                                 tf.logical_not(tf.reduce_any(sample_ids)))
            next_inputs = tf.cond(skip, lambda: base_next_inputs, sampled)
            return finished, next_inputs, state


class CustomHelper(Helper):
    """A helper made of the user's three functions (TF1's ``seq2seq.CustomHelper``).

    Args:
      initialize_fn: ``() -> (finished, next_inputs)`` for the first step.
      sample_fn: ``(time, outputs, state) -> sample_ids``.
      next_inputs_fn: ``(time, outputs, state, sample_ids) -> (finished, next_inputs,
        next_state)``.
      sample_ids_shape, sample_ids_dtype: of each sample (a scalar int32 by default).
    """

    def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None,
                 sample_ids_dtype=None):
        tf = _v1()
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or tf.int32

    @property
    def batch_size(self):
        """The size of ``finished`` from ``initialize`` (ValueError before it ran)."""
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_ids_dtype

    def initialize(self, name=None):
        tf = _v1()
        with tf.name_scope(name, "%sInitialize" % type(self).__name__):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = tf.size(finished)
        return finished, next_inputs

    def sample(self, time, outputs, state, name=None):
        tf = _v1()
        with tf.name_scope(name, "%sSample" % type(self).__name__, (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        tf = _v1()
        with tf.name_scope(name, "%sNextInputs" % type(self).__name__,
                           (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                        sample_ids=sample_ids)


class InferenceHelper(Helper):
    """Feeds ``next_inputs_fn(outputs)`` back; ``sample_fn(outputs)`` gives the samples.

    Finished when ``end_fn(sample_ids)`` is true (never without ``end_fn``: pass
    ``maximum_iterations`` to ``dynamic_decode``).
    """

    def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn,
                 next_inputs_fn=None):
        tf = _v1()
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = tf.TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")
        self._batch_size = tf.shape(self._start_inputs)[0]

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_dtype

    def initialize(self, name=None):
        tf = _v1()
        return tf.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        return self._sample_fn(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        next_inputs = outputs if self._next_inputs_fn is None else self._next_inputs_fn(outputs)
        return self._end_fn(sample_ids), next_inputs, state


# --- decoders -------------------------------------------------------------------------

class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    """One step's (or the stacked) cell output and sample ids."""


class Decoder(abc.ABC):
    """What :func:`dynamic_decode` drives (TF1's ``seq2seq.Decoder``)."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        """The batch size."""

    @property
    @abc.abstractmethod
    def output_size(self):
        """A (nested) TensorShape of one step's output, without the batch."""

    @property
    @abc.abstractmethod
    def output_dtype(self):
        """A (nested) dtype of one step's output."""

    @abc.abstractmethod
    def initialize(self, name=None):
        """Returns ``(finished, initial_inputs, initial_state)``."""

    @abc.abstractmethod
    def step(self, time, inputs, state, name=None):
        """Returns ``(outputs, next_state, next_inputs, finished)``."""

    def finalize(self, outputs, final_state, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        return False


class BasicDecoder(Decoder):
    """An RNN cell, an optional output layer and a helper, one step at a time.

    Args:
      cell: an RNN cell (``tf.nn.rnn_cell.*``).
      helper: a :class:`Helper`.
      initial_state: the cell's initial state (e.g. the encoder's final state).
      output_layer: an optional ``tf.layers`` layer applied to each cell output
        before sampling (e.g. ``Dense(vocab_size)``).
    """

    def __init__(self, cell, helper, initial_state, output_layer=None):
        tf = _v1()
        if not callable(cell) or not hasattr(cell, "output_size"):
            raise TypeError(f"cell must be an RNN cell, got {type(cell)}")
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a seq2seq Helper, got {type(helper)}")
        if output_layer is not None and not callable(output_layer):
            raise TypeError(f"output_layer must be a layer, got {type(output_layer)}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer
        self._tf = tf

    @property
    def batch_size(self):
        return self._helper.batch_size

    def _rnn_output_size(self):
        tf = self._tf
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        with_batch = tf.nest.map_structure(
            lambda s: tf.TensorShape([None]).concatenate(s), size)
        layer_shape = self._output_layer.compute_output_shape(with_batch)
        return tf.nest.map_structure(lambda s: tf.TensorShape(s)[1:], layer_shape)

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        tf = self._tf
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(
            tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        tf = self._tf
        with tf.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


def dynamic_decode(decoder, output_time_major=False, impute_finished=False,
                   maximum_iterations=None, parallel_iterations=32, swap_memory=False,
                   scope=None):
    """Runs ``decoder`` until every sequence is finished (or ``maximum_iterations``).

    Returns:
      ``(final_outputs, final_state, final_sequence_lengths)``; outputs are
      [batch, time, ...] unless ``output_time_major``.
    """
    tf = _v1()
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with tf.variable_scope(scope, "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32,
                                                      name="maximum_iterations")
            if maximum_iterations.get_shape().ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        batch_size = decoder.batch_size

        def zeros(shape, dtype):
            shape = tf.TensorShape(shape)
            return tf.zeros(tf.concat([tf.reshape(batch_size, [-1]),
                                       tf.constant(shape.as_list(), tf.int32)
                                       if shape.ndims else tf.constant([], tf.int32)], 0),
                            dtype=dtype)

        zero_outputs = tf.nest.map_structure(zeros, decoder.output_size, decoder.output_dtype,
                                             check_types=False)
        if maximum_iterations is not None:
            initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_sequence_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
        initial_time = tf.constant(0, dtype=tf.int32)

        def make_ta(shape, dtype):
            static_batch = tf.get_static_value(batch_size)
            element_shape = tf.TensorShape([static_batch]).concatenate(tf.TensorShape(shape))
            return tf.TensorArray(dtype=dtype, size=0, dynamic_size=True,
                                  element_shape=element_shape)

        initial_outputs_ta = tf.nest.map_structure(make_ta, decoder.output_size,
                                                   decoder.output_dtype, check_types=False)

        def condition(unused_time, unused_outputs_ta, unused_state, unused_inputs, finished,
                      unused_sequence_lengths):
            return tf.logical_not(tf.reduce_all(finished))

        def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
            next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state)
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = tf.logical_or(decoder_finished, finished)
            next_sequence_lengths = tf.where(
                tf.logical_not(finished), tf.fill(tf.shape(sequence_lengths), time + 1),
                sequence_lengths)
            if impute_finished:
                emit = tf.nest.map_structure(lambda out, zero: tf.where(finished, zero, out),
                                             next_outputs, zero_outputs)

                def maybe_copy_state(new, cur):
                    if isinstance(cur, tf.TensorArray):
                        return new
                    new.set_shape(cur.shape)
                    return new if new.shape.ndims == 0 else tf.where(finished, cur, new)

                next_state = tf.nest.map_structure(maybe_copy_state, decoder_state, state)
            else:
                emit = next_outputs
                next_state = decoder_state
            outputs_ta = tf.nest.map_structure(lambda ta, out: ta.write(time, out),
                                               outputs_ta, emit)
            return (time + 1, outputs_ta, next_state, next_inputs, next_finished,
                    next_sequence_lengths)

        res = tf.while_loop(
            condition, body,
            loop_vars=(initial_time, initial_outputs_ta, initial_state, initial_inputs,
                       initial_finished, initial_sequence_lengths),
            parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
            swap_memory=swap_memory)
        final_outputs_ta, final_state, final_sequence_lengths = res[1], res[2], res[5]
        final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), final_outputs_ta)
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = tf.nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths


# --- losses and utilities -------------------------------------------------------------

def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
    """Weighted cross-entropy of [batch, time, classes] logits against [batch, time] ids.

    With both averages (the default) the result is a scalar: the weighted sum
    divided by the sum of the weights (plus 1e-12).
    """
    tf = _v1()
    if len(logits.get_shape()) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if len(targets.get_shape()) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.get_shape()) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to "
                         "True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at "
                         "same time.")
    with tf.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = tf.shape(logits)[2]
        logits_flat = tf.reshape(logits, [-1, num_classes])
        targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                      logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            crossent = tf.reduce_sum(crossent)
            total_size = tf.reduce_sum(weights) + 1e-12
            crossent /= total_size
        elif sum_over_timesteps and sum_over_batch:
            crossent = tf.reduce_sum(crossent)
            total_count = tf.cast(tf.count_nonzero(weights), crossent.dtype) + 1e-12
            crossent /= total_count
        else:
            crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
            if average_across_timesteps or average_across_batch:
                axis = [0] if average_across_batch else [1]
                crossent = tf.reduce_sum(crossent, axis=axis)
                total_size = tf.reduce_sum(weights, axis=axis) + 1e-12
                crossent /= total_size
            elif sum_over_timesteps or sum_over_batch:
                axis = [0] if sum_over_batch else [1]
                crossent = tf.reduce_sum(crossent, axis=axis)
                total_count = tf.cast(tf.count_nonzero(weights, axis=axis),
                                      crossent.dtype) + 1e-12
                crossent /= total_count
        return crossent


def tile_batch(t, multiplier, name=None):
    """Repeats each batch entry ``multiplier`` times (``[a, b] -> [a, a, b, b]``)."""
    tf = _v1()

    def tile_one(x):
        x = tf.convert_to_tensor(x)
        if x.get_shape().ndims == 0:
            raise ValueError("tile_batch needs tensors of rank >= 1")
        tiling = [1] * (x.get_shape().ndims + 1)
        tiling[1] = multiplier
        expanded = tf.tile(tf.expand_dims(x, 1), tiling)
        shape = tf.concat([[tf.shape(x)[0] * multiplier], tf.shape(x)[1:]], 0)
        out = tf.reshape(expanded, shape)
        static = x.get_shape()
        if static[0] is not None and tf.compat.dimension_value(static[0]) is not None:
            out.set_shape(tf.TensorShape([tf.compat.dimension_value(static[0]) * multiplier])
                          .concatenate(static[1:]))
        else:
            out.set_shape(tf.TensorShape([None]).concatenate(static[1:]))
        return out

    with tf.name_scope(name, "tile_batch", tf.nest.flatten(t)):
        return tf.nest.map_structure(tile_one, t)
