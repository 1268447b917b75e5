"""The attention seq2seq model of this fixture, written as TF1 code (``import tensorflow
as tf``): built by make_fixture.py under TF 1.15.5 and by tests/corpus/test_seq2seq_tf115.py
under tf1mem. An LSTM encoder, an AttentionWrapper (BahdanauAttention, normalize=True)
decoder trained with TrainingHelper and Adam, greedy and beam-search (width 3) decoding
sharing its variables."""
import numpy as np
import tensorflow as tf

BATCH, SRC, TGT, VOCAB, EMB, UNITS, BEAM = 2, 4, 3, 6, 3, 4, 3
SOURCE = np.cos(np.arange(BATCH * SRC * EMB)).reshape(BATCH, SRC, EMB).astype(np.float32)
TARGETS = np.array([[1, 2, 3], [4, 5, 0]], np.int32)


def build():
    """Builds the model in the default graph; returns its fetches by name."""
    source = tf.constant(SOURCE)
    source_length = tf.constant([4, 2])
    target_length = tf.constant([3, 2])
    targets = tf.constant(TARGETS)
    with tf.variable_scope('s2s', initializer=tf.glorot_uniform_initializer(seed=3)):
        embedding = tf.get_variable('embedding', [VOCAB, EMB])
        memory, encoder_state = tf.nn.dynamic_rnn(
            tf.nn.rnn_cell.BasicLSTMCell(UNITS), source, source_length, dtype=tf.float32,
            scope='encoder')
        decoder_cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        projection = tf.layers.Dense(VOCAB, use_bias=False, name='projection')

        def attention_cell(memory, lengths):
            mechanism = tf.contrib.seq2seq.BahdanauAttention(UNITS, memory, lengths,
                                                             normalize=True)
            return tf.contrib.seq2seq.AttentionWrapper(decoder_cell, mechanism,
                                                       attention_layer_size=5)

        cell = attention_cell(memory, source_length)
        initial = cell.zero_state(BATCH, tf.float32).clone(cell_state=encoder_state)
        helper = tf.contrib.seq2seq.TrainingHelper(
            tf.nn.embedding_lookup(embedding, targets), target_length)
        outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(
            tf.contrib.seq2seq.BasicDecoder(cell, helper, initial, output_layer=projection),
            scope='decoder')
        weights = tf.sequence_mask(target_length, TGT, dtype=tf.float32)
        loss = tf.contrib.seq2seq.sequence_loss(outputs.rnn_output, targets, weights)
        step = tf.train.get_or_create_global_step()
        train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    with tf.variable_scope('s2s', reuse=True):
        greedy = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([BATCH], 1), 0)
        greedy_out, _, _ = tf.contrib.seq2seq.dynamic_decode(
            tf.contrib.seq2seq.BasicDecoder(cell, greedy, initial, output_layer=projection),
            maximum_iterations=4, scope='decoder')
        tile = tf.contrib.seq2seq.tile_batch
        beam_cell = attention_cell(tile(memory, BEAM), tile(source_length, BEAM))
        beam_initial = beam_cell.zero_state(BATCH * BEAM, tf.float32).clone(
            cell_state=tile(encoder_state, BEAM))
        beam_out, _, _ = tf.contrib.seq2seq.dynamic_decode(
            tf.contrib.seq2seq.BeamSearchDecoder(beam_cell, embedding, tf.fill([BATCH], 1), 0,
                                                 beam_initial, BEAM, output_layer=projection,
                                                 length_penalty_weight=0.4),
            maximum_iterations=4, scope='decoder')
    return {'loss': loss, 'train_op': train_op, 'rnn_output': outputs.rnn_output,
            'greedy_ids': greedy_out.sample_id, 'beam_ids': beam_out.predicted_ids,
            'beam_scores': beam_out.beam_search_decoder_output.scores}


def evaluate(sess, fetches):
    """What the fixture records: the outputs, then the loss after one more Adam step."""
    values = sess.run({k: v for k, v in fetches.items() if k != 'train_op'})
    sess.run(fetches['train_op'])
    after = sess.run(fetches['loss'])
    return {'loss': float(values['loss']), 'loss_after_step': float(after),
            'rnn_output': values['rnn_output'].ravel().tolist(),
            'greedy_ids': values['greedy_ids'].tolist(),
            'beam_ids': values['beam_ids'].tolist(),
            'beam_scores': values['beam_scores'].ravel().tolist()}
