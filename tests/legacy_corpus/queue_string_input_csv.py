"""Queue-based file input: string_input_producer + TextLineReader + decode_csv + batch, num_epochs."""
import os
import tempfile

import tensorflow as tf

tmp = tempfile.mkdtemp()
filenames = []
for i in range(2):
    fn = os.path.join(tmp, 'part-%d.csv' % i)
    with open(fn, 'w') as f:
        for r in range(3):
            f.write('%d,%d.5,%s\n' % (i * 10 + r, r, 'ab'[r % 2]))
    filenames.append(fn)

filename_queue = tf.train.string_input_producer(filenames, num_epochs=1, shuffle=False)
reader = tf.TextLineReader()
key, value = reader.read(filename_queue)
col1, col2, col3 = tf.decode_csv(value, record_defaults=[[0], [0.0], ['']])
ids, vals, strs = tf.train.batch([col1, col2, col3], batch_size=4, num_threads=1,
                                 allow_smaller_final_batch=True)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    seen = []
    try:
        while not coord.should_stop():
            i, v, s = sess.run([ids, vals, strs])
            seen.append(len(i))
            print('ids: %s vals: %s strs: %s' % (' '.join(str(x) for x in i),
                                                 ' '.join('%g' % x for x in v),
                                                 ' '.join(x.decode() for x in s)))
    except tf.errors.OutOfRangeError:
        print('done: epoch limit reached')
    finally:
        coord.request_stop()
    coord.join(threads)
    print('batch sizes: %s' % ' '.join(str(n) for n in seen))
