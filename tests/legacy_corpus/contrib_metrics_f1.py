"""tf.contrib.metrics.f1_score as BERT fine-tuning notebooks' metric_fn used it: the best F1
over thresholds of streamed probabilities, weighted and unweighted, updated over batches."""
import numpy as np
import tensorflow as tf
labels = tf.placeholder(tf.int64, [None])
probs = tf.placeholder(tf.float32, [None])
f1, up = tf.contrib.metrics.f1_score(labels, probs)
f1w, upw = tf.contrib.metrics.f1_score(labels, probs, weights=tf.constant([1., 2., 0.5, 1.]), num_thresholds=10, name="weighted")
print(f1.name, up.name, sorted(v.name for v in tf.local_variables()))
rng = np.random.RandomState(3)
with tf.Session() as s:
    s.run(tf.local_variables_initializer())
    for _ in range(3):
        l = rng.randint(0, 2, 4); p = rng.rand(4).astype(np.float32)
        print("update: %.6f %.6f" % tuple(s.run([up, upw], {labels: l, probs: p})))
    print("f1: %.6f %.6f" % tuple(s.run([f1, f1w])))
