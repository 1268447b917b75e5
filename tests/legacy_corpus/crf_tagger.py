"""A CRF sequence tagger (tf.contrib.crf): a linear layer over word embeddings, trained with
crf_log_likelihood, decoded in the graph with crf_decode and outside it with viterbi_decode."""
import numpy as np
import tensorflow as tf

np.random.seed(7)
num_examples, num_words, num_features, num_tags = 6, 5, 4, 3
x = np.random.rand(num_examples, num_words, num_features).astype(np.float32)
y = np.random.randint(num_tags, size=[num_examples, num_words]).astype(np.int32)
sequence_lengths = np.array([5, 4, 3, 5, 1, 2], dtype=np.int32)

with tf.Graph().as_default():
    x_t = tf.constant(x)
    y_t = tf.constant(y)
    lengths_t = tf.constant(sequence_lengths)
    weights = tf.get_variable("weights", [num_features, num_tags],
                              initializer=tf.constant_initializer(
                                  np.linspace(-0.5, 0.5, num_features * num_tags)
                                  .reshape(num_features, num_tags)))
    matricized_x_t = tf.reshape(x_t, [-1, num_features])
    matricized_unary_scores = tf.matmul(matricized_x_t, weights)
    unary_scores = tf.reshape(matricized_unary_scores, [num_examples, num_words, num_tags])
    log_likelihood, transition_params = tf.contrib.crf.crf_log_likelihood(
        unary_scores, y_t, lengths_t)
    viterbi_sequence, viterbi_score = tf.contrib.crf.crf_decode(
        unary_scores, transition_params, lengths_t)
    loss = tf.reduce_mean(-log_likelihood)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    seq_score = tf.contrib.crf.crf_sequence_score(unary_scores, y_t, lengths_t,
                                                  transition_params)
    log_norm = tf.contrib.crf.crf_log_norm(unary_scores, lengths_t, transition_params)
    print('transitions var: %s %s' % (transition_params.name,
                                      transition_params.get_shape().as_list()))
    with tf.Session() as session:
        session.run(tf.assign(transition_params,
                              np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.4], [-0.6, 0.2, 0.4]],
                                       np.float32)))
        session.run(tf.variables_initializer([weights]))
        print('log_likelihood: %s' % ' '.join('%.5f' % v for v in session.run(log_likelihood)))
        print('sequence score: %s' % ' '.join('%.5f' % v for v in session.run(seq_score)))
        print('log norm: %s' % ' '.join('%.5f' % v for v in session.run(log_norm)))
        for i in range(30):
            tf_viterbi_sequence, tf_viterbi_score, _, l = session.run(
                [viterbi_sequence, viterbi_score, train_op, loss])
            if i % 10 == 0:
                mask = (np.expand_dims(np.arange(num_words), axis=0) <
                        np.expand_dims(sequence_lengths, axis=1))
                total_labels = np.sum(sequence_lengths)
                correct_labels = np.sum((y == tf_viterbi_sequence) * mask)
                accuracy = 100.0 * correct_labels / float(total_labels)
                print('step %d loss %.5f accuracy: %.2f%%' % (i, l, accuracy))
        print('crf_decode tags: %s' % tf_viterbi_sequence.tolist())
        print('crf_decode score: %s' % ' '.join('%.4f' % v for v in tf_viterbi_score))
        tf_unary_scores, tf_transition_params = session.run([unary_scores, transition_params])
        for i in range(3):
            score = tf_unary_scores[i][:sequence_lengths[i]]
            seq, seq_score_np = tf.contrib.crf.viterbi_decode(score, tf_transition_params)
            print('viterbi_decode %d: %s %.4f' % (i, list(seq), seq_score_np))
        print('trained transitions: %s' % ' '.join('%.4f' % v for v in
                                                  tf_transition_params.ravel()))
