"""tf.app.flags + tf.app.run(): flags defined at module level, parsed by tf.app.run."""
import tensorflow as tf

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_float('learning_rate', 0.1, 'Initial learning rate.')
flags.DEFINE_integer('max_steps', 2, 'Number of steps to run trainer.')
flags.DEFINE_string('name', 'default', 'A name.')
flags.DEFINE_boolean('verbose', False, 'Print more.')


def main(_):
    print('learning_rate: %g' % FLAGS.learning_rate)
    print('max_steps: %d' % FLAGS.max_steps)
    print('name: %s' % FLAGS.name)
    print('verbose: %s' % FLAGS.verbose)
    x = tf.Variable(4.0, name='x')
    loss = tf.square(x)
    train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.max_steps):
            sess.run(train_op)
        print('x: %.6f' % sess.run(x))


if __name__ == '__main__':
    tf.app.run()
