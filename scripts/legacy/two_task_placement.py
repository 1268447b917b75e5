import tensorflow as tf

# 定义分布式模型
cluster = tf.train.ClusterSpec({"local": ["localhost:2222", "localhost:2223"]})
server0 = tf.train.Server(cluster, job_name="local", task_index=0)
server1 = tf.train.Server(cluster, job_name="local", task_index=1)

with tf.device("/job:local/task:0"):
    x = tf.placeholder(tf.float32, shape=[None, 784])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y_pred = tf.nn.softmax(tf.matmul(x, W) + b)

with tf.device("/job:local/task:1"):
    y = tf.placeholder(tf.float32, shape=[None, 10])
    cross_entropy = tf.reduce_mean(-tf.reduce_sum(y * tf.log(y_pred), reduction_indices=[1]))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

# 启动分布式会话
with tf.Session("grpc://localhost:2222", config=tf.ConfigProto(log_device_placement=True)) as sess:
    # 初始化所有变量
    sess.run(tf.global_variables_initializer())

    # 定义分布式数据集
    from tensorflow.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
    partition_size = 1000
    num_partitions = mnist.train.num_examples // partition_size
    partition_lst = []
    for i in range(num_partitions):
        partition = mnist.train.next_batch(partition_size)
        partition_lst.append(partition)

    # 训练
    for i in range(num_partitions):
        _, loss_val = sess.run([train_step, cross_entropy], feed_dict={x: partition_lst[i][0], y: partition_lst[i][1]})
        print("Partition %d loss: %f" % (i, loss_val))
