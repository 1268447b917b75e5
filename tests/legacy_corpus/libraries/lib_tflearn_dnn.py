"""TFLearn's quick start: a DNN of fully connected layers, regression, DNN.fit, predict."""
import numpy as np
import tflearn

rng = np.random.RandomState(0)
X = rng.rand(64, 6).astype(np.float32)
Y = np.zeros((64, 2), np.float32)
Y[np.arange(64), (X.sum(axis=1) > 3).astype(int)] = 1

tflearn.init_graph(seed=1, num_cores=1)
init = tflearn.initializations.truncated_normal(stddev=0.1, seed=3)
net = tflearn.input_data(shape=[None, 6])
net = tflearn.fully_connected(net, 32, weights_init=init)
net = tflearn.fully_connected(net, 32, weights_init=init)
net = tflearn.fully_connected(net, 2, activation="softmax", weights_init=init)
net = tflearn.regression(net)
model = tflearn.DNN(net)
model.fit(X, Y, n_epoch=3, batch_size=16, show_metric=False, shuffle=False)
print("\npred:", " ".join("%.5f" % p for p in np.ravel(model.predict(X[:3]))))
print("layers:", " ".join(v.name for v in tflearn.get_all_trainable_variable()))
