"""tf.contrib.distributions as TF1 code used it: `ds = tf.contrib.distributions`;
Normal / Bernoulli / Categorical / Beta (TF's own v1 classes), a VAE's
MultivariateNormalDiag posterior with its KL to a standard-normal prior and a
reparameterised sample trained for three steps, MultivariateNormalTriL /
FullCovariance, MultivariateNormalDiagWithSoftplusScale, OneHotCategorical, the
Gumbel-softmax RelaxedOneHotCategorical, RelaxedBernoulli, Mixture and
MixtureSameFamily, percentile (the median trick of kernel bandwidths), softplus_inverse;
the shape errors."""
import numpy as np
import tensorflow as tf

ds = tf.contrib.distributions


def show(label, value):
    print('%s %s' % (label, ' '.join('%.5f' % v for v in np.ravel(value))))


loc = tf.constant([[0., 1., 2.], [1., -1., 0.5]])
scale = tf.constant([[1., 0.5, 2.], [0.3, 1., 1.5]])
x = tf.constant([[0.5, 0.5, 0.5], [0., 0., 0.]])
posterior = ds.MultivariateNormalDiag(loc=loc, scale_diag=scale)
prior = ds.MultivariateNormalDiag(loc=tf.zeros(3), scale_diag=tf.ones(3))
print('mvn_diag shapes:', posterior.batch_shape, posterior.event_shape,
      prior.batch_shape, prior.event_shape)
print('reparameterized:', posterior.reparameterization_type == ds.FULLY_REPARAMETERIZED)
only_loc = ds.MultivariateNormalDiag(loc=[1., 2.])
multiplier = ds.MultivariateNormalDiag(loc=[0., 0.], scale_diag=[1., 2.],
                                       scale_identity_multiplier=0.5)
softplus = ds.MultivariateNormalDiagWithSoftplusScale(loc=[0., 1.], scale_diag=[-1., 2.])
tril = ds.MultivariateNormalTriL(loc=[1., 0.], scale_tril=[[2., 0.], [0.5, 1.]])
full = ds.MultivariateNormalFullCovariance(loc=[0., 0.],
                                           covariance_matrix=[[2., 0.5], [0.5, 1.]])
print('tril shapes:', tril.batch_shape, tril.event_shape)

probs = tf.constant([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]])
onehot = ds.OneHotCategorical(probs=probs)
onehot_b = ds.OneHotCategorical(logits=tf.constant([0., 1., -1.]))
print('onehot shapes and dtype:', onehot.batch_shape, onehot.event_shape, onehot.dtype.name)
gumbel = ds.RelaxedOneHotCategorical(0.5, logits=tf.log(probs))
print('gumbel shapes:', gumbel.batch_shape, gumbel.event_shape)
relaxed_bernoulli = ds.RelaxedBernoulli(0.5, logits=[0., 2.])
mixture = ds.Mixture(cat=ds.Categorical(probs=[0.3, 0.7]),
                     components=[ds.Normal(loc=-1., scale=0.5), ds.Normal(loc=2., scale=1.)])
same_family = ds.MixtureSameFamily(
    mixture_distribution=ds.Categorical(probs=[0.3, 0.7]),
    components_distribution=ds.Normal(loc=[-1., 2.], scale=[0.5, 1.]))
static_mixture = ds.Mixture(
    cat=ds.Categorical(probs=[0.3, 0.7]),
    components=[ds.Normal(loc=-1., scale=0.5), ds.Normal(loc=2., scale=1.)],
    use_static_graph=True)
print('mixture shapes:', mixture.batch_shape, mixture.event_shape,
      same_family.batch_shape, same_family.event_shape)

normal = ds.Normal(loc=[0., 1.], scale=[1., 2.])
data = tf.constant([[1., 9., 3., 7.], [4., 2., 8., 6.]])

values = [
    ('normal log_prob:', normal.log_prob([0.5, 0.5])),
    ('normal cdf:', normal.cdf([0.5, 0.5])),
    ('bernoulli log_prob:', ds.Bernoulli(probs=0.3).log_prob(1)),
    ('beta mean:', ds.Beta(2., 3.).mean()),
    ('categorical entropy:', ds.Categorical(probs=[0.2, 0.8]).entropy()),
    ('mvn_diag log_prob:', posterior.log_prob(x)),
    ('mvn_diag prob:', posterior.prob(x)),
    ('mvn_diag entropy:', posterior.entropy()),
    ('mvn_diag mean:', posterior.mean()),
    ('mvn_diag stddev:', posterior.stddev()),
    ('mvn_diag variance:', posterior.variance()),
    ('mvn_diag covariance[1]:', posterior.covariance()[1]),
    ('mvn_diag kl to prior:', ds.kl_divergence(posterior, prior)),
    ('mvn_diag kl method:', posterior.kl_divergence(prior)),
    ('only loc log_prob:', only_loc.log_prob([0., 0.])),
    ('multiplier stddev:', multiplier.stddev()),
    ('multiplier log_prob:', multiplier.log_prob([1., 1.])),
    ('softplus stddev:', softplus.stddev()),
    ('tril log_prob:', tril.log_prob([[0., 0.], [1., 1.]])),
    ('tril entropy:', tril.entropy()),
    ('tril covariance:', tril.covariance()),
    ('tril stddev:', tril.stddev()),
    ('full log_prob:', full.log_prob([1., -1.])),
    ('full covariance:', full.covariance()),
    ('kl tril full:', ds.kl_divergence(tril, full)),
    ('onehot log_prob:', onehot.log_prob([[0, 1, 0], [0, 0, 1]])),
    ('onehot entropy:', onehot.entropy()),
    ('onehot mode:', onehot.mode()),
    ('onehot kl:', ds.kl_divergence(onehot, onehot_b)),
    ('gumbel log_prob:', gumbel.log_prob([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]])),
    ('relaxed bernoulli log_prob:', relaxed_bernoulli.log_prob([0.3, 0.9])),
    ('mixture log_prob:', mixture.log_prob([0., 1.5])),
    ('mixture mean:', mixture.mean()),
    ('mixture variance:', mixture.variance()),
    ('mixture entropy_lower_bound:', mixture.entropy_lower_bound()),
    ('same family log_prob:', same_family.log_prob([0., 1.5])),
    ('same family mean:', same_family.mean()),
    ('same family variance:', same_family.variance()),
    ('median:', ds.percentile(data, 50.)),
    ('median rows:', ds.percentile(data, 50., axis=1)),
    ('q30 lower:', ds.percentile(data, 30., axis=[1], interpolation='lower')),
    ('q30 higher:', ds.percentile(data, 30., axis=1, interpolation='higher')),
    ('q30 nearest:', ds.percentile(data, 30., axis=1, interpolation='nearest')),
    ('q75 columns:', ds.percentile(data, 75., axis=0)),
    ('q0 q100:', tf.stack([ds.percentile(data, 0.), ds.percentile(data, 100.)])),
    ('int median:', ds.percentile(tf.constant([5, 1, 4, 2]), 50.)),
    ('softplus_inverse:', ds.softplus_inverse([0.5, 1., 3.])),
]
kept = ds.percentile(data, 50., axis=1, keep_dims=True)
print('keep_dims shape:', kept.shape)
wide = ds.MultivariateNormalDiag(loc=[[0., 1.], [2., 3.]], scale_diag=[1., 2.])
print('unbroadcast shapes:', wide.mean().shape, wide.stddev().shape, wide.variance().shape,
      wide.covariance().shape, wide.entropy().shape)

samples = [
    ('mvn_diag sample:', posterior.sample(2, seed=7)),
    ('tril sample:', tril.sample([2], seed=3)),
    ('full sample:', full.sample(seed=5)),
    ('onehot sample:', onehot.sample(3, seed=11)),
    ('gumbel sample:', gumbel.sample(seed=2)),
    ('relaxed bernoulli sample:', relaxed_bernoulli.sample(2, seed=4)),
    ('mixture sample:', mixture.sample(5, seed=6)),
    ('static mixture sample:', static_mixture.sample(5, seed=6)),
]
print('sample shapes:', ' '.join(str(s.shape) for _, s in samples))
# TF 1.15's MixtureSameFamily ignored the seed (its samples changed run to run).
print('same family sample shape:', same_family.sample(4, seed=9).shape)

# A VAE's step: encoder -> MultivariateNormalDiag, reparameterised sample, KL to the prior.
tf.set_random_seed(0)
w_mu = tf.Variable([[0.1, -0.2, 0.3], [0.0, 0.2, -0.1]], name='w_mu')
w_sd = tf.Variable([[0.2, 0.1, -0.1], [0.1, 0.0, 0.3]], name='w_sd')
inputs = tf.constant([[1., 2.], [0.5, -1.]])
z_dist = ds.MultivariateNormalDiag(loc=tf.matmul(inputs, w_mu),
                                   scale_diag=tf.nn.softplus(tf.matmul(inputs, w_sd)))
z = z_dist.sample(seed=42)
recon = tf.reduce_mean(tf.square(tf.reduce_sum(z, 1) - 1.))
kl = tf.reduce_mean(ds.kl_divergence(z_dist, prior))
loss = recon + kl
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for label, tensor in values:
        show(label, sess.run(tensor))
    for label, tensor in samples:
        show(label, sess.run(tensor))
    drawn = sess.run(same_family.sample(400))
    print('same family sample mean within 0.5 of 1.1:', abs(drawn.mean() - 1.1) < 0.5)
    for step in range(3):
        _, l = sess.run([train, loss])
        show('vae step %d loss:' % step, l)
    show('w_mu after:', sess.run(w_mu))

for label, build in [
        ('loc and scale disagree', lambda: ds.MultivariateNormalDiag(loc=[0., 0.],
                                                                     scale_diag=[1., 1., 1.])),
        ('no parameters', lambda: ds.MultivariateNormalDiag()),
        ('onehot mean', lambda: onehot.mean()),
        ('mixture entropy', lambda: mixture.entropy()),
        ('percentile linear', lambda: ds.percentile(data, 30., interpolation='linear')),
        ('percentile of two qs', lambda: ds.percentile(data, [30., 50.])),
        ('both logits and probs', lambda: ds.OneHotCategorical(logits=[0., 1.],
                                                               probs=[0.5, 0.5])),
]:
    try:
        build()
        print(label, ': no error')
    except (ValueError, TypeError, NotImplementedError) as e:
        print(label, ':', type(e).__name__)
