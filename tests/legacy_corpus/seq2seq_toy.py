"""A seq2seq toy (tf.contrib.seq2seq, TF 1.2+ style): learn to reverse short digit sequences.
LSTM encoder (dynamic_rnn), decoder BasicDecoder + TrainingHelper for training and
GreedyEmbeddingHelper for inference (reusing the variables), sequence_loss with a mask;
tf.contrib.legacy_seq2seq.sequence_loss on the same logits for comparison."""
import numpy as np
import tensorflow as tf

PAD, GO, EOS = 0, 1, 2
vocab_size, embed_dim, num_units = 8, 6, 16
batch_size, max_len = 8, 5

rng = np.random.RandomState(0)


def make_batch():
    lengths = rng.randint(2, max_len + 1, size=batch_size)
    lengths[0] = max_len  # the decoder then always runs max_len + 1 steps
    src = np.full([batch_size, max_len], PAD, np.int32)
    tgt_in = np.full([batch_size, max_len + 1], PAD, np.int32)
    tgt_out = np.full([batch_size, max_len + 1], PAD, np.int32)
    for i, n in enumerate(lengths):
        seq = rng.randint(3, vocab_size, size=n)
        src[i, :n] = seq
        tgt_in[i, 0] = GO
        tgt_in[i, 1:n + 1] = seq[::-1]
        tgt_out[i, :n] = seq[::-1]
        tgt_out[i, n] = EOS
    return src, lengths.astype(np.int32), tgt_in, tgt_out, (lengths + 1).astype(np.int32)


init = tf.random_uniform_initializer(-0.3, 0.3, seed=11)
encoder_inputs = tf.placeholder(tf.int32, [None, None], name='encoder_inputs')
source_lengths = tf.placeholder(tf.int32, [None], name='source_lengths')
decoder_inputs = tf.placeholder(tf.int32, [None, None], name='decoder_inputs')
decoder_targets = tf.placeholder(tf.int32, [None, None], name='decoder_targets')
target_lengths = tf.placeholder(tf.int32, [None], name='target_lengths')

with tf.variable_scope('seq2seq', initializer=init):
    embeddings = tf.get_variable('embeddings', [vocab_size, embed_dim])
    enc_emb = tf.nn.embedding_lookup(embeddings, encoder_inputs)
    dec_emb = tf.nn.embedding_lookup(embeddings, decoder_inputs)
    with tf.variable_scope('encoder'):
        enc_cell = tf.contrib.rnn.LSTMCell(num_units)
        _, encoder_state = tf.nn.dynamic_rnn(enc_cell, enc_emb, sequence_length=source_lengths,
                                             dtype=tf.float32)
    dec_cell = tf.contrib.rnn.LSTMCell(num_units)
    projection = tf.layers.Dense(vocab_size, use_bias=False, name='output_projection',
                                 kernel_initializer=init)
    helper = tf.contrib.seq2seq.TrainingHelper(dec_emb, target_lengths)
    decoder = tf.contrib.seq2seq.BasicDecoder(dec_cell, helper, encoder_state,
                                              output_layer=projection)
    outputs, final_state, final_lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    logits = outputs.rnn_output
    mask = tf.sequence_mask(target_lengths, tf.shape(decoder_targets)[1], dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(logits, decoder_targets, mask)
    legacy_loss = tf.contrib.legacy_seq2seq.sequence_loss(
        tf.unstack(logits, num=max_len + 1, axis=1),
        tf.unstack(decoder_targets, num=max_len + 1, axis=1),
        tf.unstack(mask, num=max_len + 1, axis=1))
    train_op = tf.train.AdamOptimizer(0.02).minimize(loss)

with tf.variable_scope('seq2seq', reuse=True):
    start_tokens = tf.fill([tf.shape(encoder_inputs)[0]], GO)
    infer_helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(embeddings, start_tokens, EOS)
    infer_decoder = tf.contrib.seq2seq.BasicDecoder(dec_cell, infer_helper, encoder_state,
                                                    output_layer=projection)
    infer_outputs, _, infer_lengths = tf.contrib.seq2seq.dynamic_decode(
        infer_decoder, maximum_iterations=max_len + 1)
    predictions = infer_outputs.sample_id

print('logits: %s' % logits.get_shape().as_list())
print('sample_id: %s %s' % (outputs.sample_id.dtype.name, outputs.sample_id.get_shape().as_list()))
print('decoder variables: %s' % ' '.join(
    v.op.name for v in tf.trainable_variables() if 'decoder' in v.op.name))
print('trainable: %d' % len(tf.trainable_variables()))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(151):
        src, src_len, tgt_in, tgt_out, tgt_len = make_batch()
        feed = {encoder_inputs: src, source_lengths: src_len, decoder_inputs: tgt_in,
                decoder_targets: tgt_out, target_lengths: tgt_len}
        if step == 0:
            l, ll, fl = sess.run([loss, legacy_loss, final_lengths], feed)
            print('initial loss: %.5f legacy: %.5f' % (l, ll))
            print('decoded lengths: %s target: %s' % (fl.tolist(), tgt_len.tolist()))
        _, l = sess.run([train_op, loss], feed)
        if step % 50 == 0:
            print('step %d loss %.5f' % (step, l))
    src = np.array([[3, 4, 5, 6, 0], [7, 6, 5, 0, 0], [4, 7, 0, 0, 0]], np.int32)
    pred, pred_len = sess.run([predictions, infer_lengths],
                              {encoder_inputs: src, source_lengths: [4, 3, 2]})
    print('greedy predictions: %s' % pred.tolist())
    print('greedy lengths: %s' % pred_len.tolist())
