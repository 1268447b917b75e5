"""stable-baselines 2's quick start: PPO2 with an MlpPolicy on CartPole-v1, seeded."""
import gym
import numpy as np
from stable_baselines import PPO2
from stable_baselines.common.policies import MlpPolicy

env = gym.make("CartPole-v1")
model = PPO2(MlpPolicy, env, n_steps=64, nminibatches=4, noptepochs=2, seed=0, verbose=0,
             n_cpu_tf_sess=1)
before = model.get_parameters()
for name in sorted(before):
    print("init %s %s %.6f" % (name, before[name].shape, float(np.sum(before[name]))))
model.learn(total_timesteps=256)
after = model.get_parameters()
print("trained:", " ".join(sorted(n for n in after if not np.array_equal(after[n], before[n]))))
print("finite:", all(np.isfinite(v).all() for v in after.values()))
obs = env.reset()
actions = []
for _ in range(20):
    action, _states = model.predict(obs, deterministic=True)
    actions.append(int(action))
    obs, reward, done, info = env.step(action)
    if done:
        obs = env.reset()
print("actions:", len(actions), sorted(set(actions)) in ([0], [1], [0, 1]))
