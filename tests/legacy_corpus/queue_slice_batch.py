"""Queue runners: tf.train.slice_input_producer + tf.train.batch + Coordinator + start_queue_runners."""
import numpy as np
import tensorflow as tf

images = np.arange(12, dtype=np.float32).reshape(6, 2)
labels = np.arange(6, dtype=np.int32)
image, label = tf.train.slice_input_producer([images, labels], shuffle=False, num_epochs=None)
image_batch, label_batch = tf.train.batch([image, label], batch_size=4, num_threads=1, capacity=32)
print('batch shapes: %s %s' % (image_batch.get_shape().as_list(), label_batch.get_shape().as_list()))
print('queue runners: %d' % len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    try:
        for step in range(3):
            if coord.should_stop():
                break
            ib, lb = sess.run([image_batch, label_batch])
            print('step %d labels: %s first-col: %s' % (step, ' '.join(str(v) for v in lb),
                                                       ' '.join('%g' % v for v in ib[:, 0])))
    finally:
        coord.request_stop()
        coord.join(threads)
    print('threads stopped: %s' % coord.should_stop())
