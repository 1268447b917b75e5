"""tf.contrib.distributions' bijectors and TransformedDistribution as TF1 code used them: a
log-normal (Normal through Exp), Affine(shift=1.) on a Normal, a vector event from a
scalar standard normal (event_shape=[3]) through Affine(shift, scale_diag / scale_tril),
a normalising-flow Chain of Affine / Softplus / Permute trained three steps, Invert(Exp),
Sigmoid, Square, Inline, a user's own Bijector subclass; forward / inverse /
log-det-Jacobians, log_prob, cdf, entropy, seeded samples; the errors (no mean, as in TF 1.15)."""
import numpy as np
import tensorflow as tf

ds = tf.contrib.distributions
tfb = tf.contrib.distributions.bijectors


def show(label, value):
    print('%s %s' % (label, ' '.join('%.5f' % v for v in np.ravel(value))))


lognormal = ds.TransformedDistribution(distribution=ds.Normal(loc=0., scale=0.5),
                                       bijector=tfb.Exp(), name='LogNormal')
shifted = ds.TransformedDistribution(ds.Normal(loc=0., scale=1.), tfb.Affine(shift=1.))
mvn = ds.TransformedDistribution(
    distribution=ds.Normal(loc=0., scale=1.),
    bijector=tfb.Affine(shift=[1., 2., 3.], scale_diag=[1., 0.5, 2.]), event_shape=[3])
tril = ds.TransformedDistribution(
    distribution=ds.Normal(loc=0., scale=1.),
    bijector=tfb.Affine(shift=[0., 1.], scale_tril=[[2., 0.], [0.5, 1.]]),
    batch_shape=[2], event_shape=[2])
print('shapes:', lognormal.batch_shape, lognormal.event_shape, mvn.batch_shape,
      mvn.event_shape, tril.batch_shape, tril.event_shape)
print('names:', lognormal.name, tfb.Exp().name, tfb.Affine(shift=1.).name,
      tfb.Softplus().name)
print('constant jacobian:', tfb.Exp().is_constant_jacobian,
      tfb.Affine(shift=1.).is_constant_jacobian)

scale = tf.Variable([0.5, 1.5], name='scale')
shift = tf.Variable([0.1, -0.2], name='shift')
flow = tfb.Chain([tfb.Affine(shift=shift, scale_diag=scale), tfb.Permute([1, 0]),
                  tfb.Softplus(), tfb.Affine(shift=[0.5, -0.5])])
flow_dist = ds.TransformedDistribution(ds.Normal(loc=0., scale=1.), flow, event_shape=[2])
data = tf.constant([[1., 2.], [0.5, 0.7], [2., 1.]])
nll = -tf.reduce_mean(flow_dist.log_prob(data))
train = tf.train.GradientDescentOptimizer(0.02).minimize(nll)


class Cube(tfb.Bijector):
    def __init__(self):
        super(Cube, self).__init__(forward_min_event_ndims=0, name='cube')

    def _forward(self, x):
        return x ** 3

    def _inverse(self, y):
        return tf.sign(y) * tf.abs(y) ** (1. / 3)

    def _inverse_log_det_jacobian(self, y):
        return -tf.log(3.) - 2. * tf.log(tf.abs(self._inverse(y)))


inline = tfb.Inline(forward_fn=tf.exp, inverse_fn=tf.log,
                    inverse_log_det_jacobian_fn=lambda y: -tf.log(y),
                    forward_min_event_ndims=0, name='inline_exp')
x = tf.constant([0.5, 2.])
values = [
    ('lognormal log_prob:', lognormal.log_prob([0.5, 1., 2.])),
    ('lognormal cdf:', lognormal.cdf([0.5, 2.])),
    ('shifted sample mean:', tf.reduce_mean(shifted.sample(2000, seed=3))),
    ('mvn log_prob:', mvn.log_prob([[1., 2., 3.], [0., 0., 0.]])),
    ('mvn entropy:', mvn.entropy()),
    ('tril log_prob:', tril.log_prob([[0., 0.], [1., 1.]])),
    ('exp fwd inv:', tf.stack([tfb.Exp().forward(x), tfb.Exp().inverse(x)])),
    ('exp ldj:', tf.stack([tfb.Exp().forward_log_det_jacobian(x, event_ndims=0),
                           tfb.Exp().inverse_log_det_jacobian(x, event_ndims=0)])),
    ('exp ldj event 1:', tfb.Exp().inverse_log_det_jacobian(x, event_ndims=1)),
    ('invert exp:', tf.stack([tfb.Invert(tfb.Exp()).forward(x),
                              tfb.Invert(tfb.Exp()).inverse_log_det_jacobian(x, 0)])),
    ('sigmoid:', tf.stack([tfb.Sigmoid().forward(x), tfb.Sigmoid().inverse([0.2, 0.7]),
                           tfb.Sigmoid().inverse_log_det_jacobian([0.2, 0.7], 0)])),
    ('softplus:', tf.stack([tfb.Softplus().forward(x), tfb.Softplus().inverse(x),
                            tfb.Softplus().forward_log_det_jacobian(x, 0)])),
    ('square:', tf.stack([tfb.Square().forward(x), tfb.Square().inverse(x),
                          tfb.Square().inverse_log_det_jacobian(x, 0)])),
    ('affine scalar:', tf.stack([tfb.AffineScalar(shift=1., scale=-2.).forward(x),
                                 tfb.AffineScalar(shift=1., scale=-2.).inverse(x),
                                 tfb.AffineScalar(shift=1., scale=-2.)
                                 .forward_log_det_jacobian(x, 0) * tf.ones(2)])),
    ('affine tril ldj:', tfb.Affine(scale_tril=[[2., 0.], [1., 3.]])
     .forward_log_det_jacobian([[1., 1.]], event_ndims=1)),
    ('affine multiplier:', tfb.Affine(scale_identity_multiplier=2.).forward([[1., 3.]])),
    ('permute:', tfb.Permute([2, 0, 1]).forward([10., 20., 30.])),
    ('permute inverse:', tfb.Permute([2, 0, 1]).inverse([10., 20., 30.])),
    ('chain:', flow.forward([[0.3, -0.4]])),
    ('chain inverse:', flow.inverse(flow.forward([[0.3, -0.4]]))),
    ('chain ldj:', flow.inverse_log_det_jacobian([[1., 2.]], event_ndims=1)),
    ('cube:', tf.stack([Cube().forward(x), Cube().inverse_log_det_jacobian(x, 0)])),
    ('cube fldj:', Cube().forward_log_det_jacobian(x, 0)),
    ('inline:', tf.stack([inline.forward(x), inline.inverse_log_det_jacobian(x, 0)])),
]
samples = [
    ('lognormal sample:', lognormal.sample(3, seed=4)),
    ('mvn sample:', mvn.sample(2, seed=5)),
    ('tril sample:', tril.sample(seed=6)),
    ('flow sample:', flow_dist.sample(2, seed=7)),
]
print('sample shapes:', ' '.join(str(s.shape) for _, s in samples))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for label, tensor in values + samples:
        show(label, sess.run(tensor))
    for step in range(3):
        show('flow step %d nll:' % step, sess.run([nll, train])[0])
    show('flow scale after:', sess.run(scale))

for label, build in [
        ('mvn mean (TF 1.15 had none)', lambda: mvn.mean()),
        ('lognormal entropy', lambda: lognormal.entropy()),
        ('affine on a scalar event, log_prob', lambda: shifted.log_prob([0., 1.])),
        ('ldj without event_ndims', lambda: tfb.Exp().forward_log_det_jacobian(x))]:
    try:
        build()
        print(label, ': no error')
    except (ValueError, TypeError, NotImplementedError) as e:
        print(label, ':', type(e).__name__)
