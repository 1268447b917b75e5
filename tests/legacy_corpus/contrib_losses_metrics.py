"""tf.contrib.losses and tf.contrib.metrics with their contrib argument order (predictions
first), as 2017-2018 training scripts called them positionally."""
from __future__ import print_function

import numpy as np
import tensorflow as tf

logits = tf.constant([[2.0, 0.5, -1.0], [0.1, 1.5, 0.3], [0.0, 0.0, 3.0]])
onehot = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
sparse = tf.constant([0, 2, 2])
preds = tf.constant([0.9, 0.2, 0.7, 0.4])
targets = tf.constant([1.0, 0.0, 0.0, 1.0])
weights = tf.constant([1.0, 2.0, 1.0, 0.5])
losses = {
    "softmax_cross_entropy": tf.contrib.losses.softmax_cross_entropy(logits, onehot),
    "softmax_smoothed": tf.contrib.losses.softmax_cross_entropy(logits, onehot,
                                                                label_smoothing=0.1),
    "sparse_softmax": tf.contrib.losses.sparse_softmax_cross_entropy(logits, sparse),
    "sigmoid": tf.contrib.losses.sigmoid_cross_entropy(preds, targets),
    "mse": tf.contrib.losses.mean_squared_error(preds, targets),
    "mse_weighted": tf.contrib.losses.mean_squared_error(preds, targets, weights),
    "absolute": tf.contrib.losses.absolute_difference(preds, targets),
    "log_loss": tf.contrib.losses.log_loss(preds, targets),
    "hinge": tf.contrib.losses.hinge_loss(preds, targets),
    "cosine": tf.contrib.losses.cosine_distance(tf.nn.l2_normalize(logits, 1),
                                                tf.nn.l2_normalize(onehot, 1), dim=1),
    "pairwise": tf.contrib.losses.mean_pairwise_squared_error(preds, targets),
}
total = tf.contrib.losses.get_total_loss(add_regularization_losses=False)
predicted = tf.constant([1, 0, 1, 1, 0, 1])
labels = tf.constant([1, 0, 0, 1, 1, 1])
acc, acc_update = tf.contrib.metrics.streaming_accuracy(predicted, labels)
prec, prec_update = tf.contrib.metrics.streaming_precision(predicted, labels)
rec, rec_update = tf.contrib.metrics.streaming_recall(predicted, labels)
mean, mean_update = tf.contrib.metrics.streaming_mean(tf.constant([1.0, 2.0, 6.0]))
mae, mae_update = tf.contrib.metrics.streaming_mean_absolute_error(preds, targets)
rmse, rmse_update = tf.contrib.metrics.streaming_root_mean_squared_error(preds, targets)
auc, auc_update = tf.contrib.metrics.streaming_auc(preds, targets)
topk, topk_update = tf.contrib.metrics.streaming_recall_at_k(logits, sparse, 1)
iou, iou_update = tf.contrib.metrics.streaming_mean_iou(predicted, labels, 2)
one_shot = tf.contrib.metrics.accuracy(predicted, labels)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    for name in sorted(losses):
        print("%s: %s" % (name, np.round(sess.run(losses[name]), 6).tolist()))
    print("total: %.6f" % sess.run(total))
    updates = [acc_update, prec_update, rec_update, mean_update, mae_update, rmse_update,
               auc_update, topk_update, iou_update]
    sess.run(updates)
    sess.run(updates)
    print("streaming: " + " ".join("%.6f" % v for v in sess.run(
        [acc, prec, rec, mean, mae, rmse, auc, topk, iou])))
    print("accuracy: %.6f" % sess.run(one_shot))
