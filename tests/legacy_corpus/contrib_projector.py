"""The embedding projector as TF1 tutorials set it up: `from
tensorflow.contrib.tensorboard.plugins import projector`, an embedding variable saved in
a checkpoint beside a metadata.tsv, `ProjectorConfig` with `embeddings.add()`,
`tensor_name`, `metadata_path`, a sprite (`image_path`, `single_image_dim.extend`),
`visualize_embeddings(summary_writer, config)`; the config file it writes, the messages'
constructors and text form, `tf.contrib.tensorboard.plugins.projector` as an attribute;
the errors of a negative dimension and an unknown field."""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector

logdir = sys.argv[1]
embedding_var = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name='word_embedding')
with open(os.path.join(logdir, 'metadata.tsv'), 'w') as f:
    f.write('word\nthe\nof\nand\n')
saver = tf.train.Saver([embedding_var])
with tf.Session() as sess:
    sess.run(embedding_var.initializer)
    saver.save(sess, os.path.join(logdir, 'model.ckpt'), global_step=10)
    writer = tf.summary.FileWriter(logdir, sess.graph)

config = projector.ProjectorConfig()
embedding = config.embeddings.add()
embedding.tensor_name = embedding_var.name
embedding.metadata_path = 'metadata.tsv'
embedding.sprite.image_path = 'sprite.png'
embedding.sprite.single_image_dim.extend([28, 28])
second = config.embeddings.add(tensor_name='other:0', tensor_shape=[4, 3])
second.bookmarks_path = 'bookmarks.txt'
projector.visualize_embeddings(writer, config)
writer.close()

with open(os.path.join(logdir, 'projector_config.pbtxt')) as f:
    print('projector_config.pbtxt:')
    print(f.read())
print('files:', ' '.join(sorted(n for n in os.listdir(logdir) if not n.startswith('events.'))))
print('event files:', len([n for n in os.listdir(logdir) if n.startswith('events.')]))

reloaded = projector.ProjectorConfig()
from google.protobuf import text_format
text_format.Merge(open(os.path.join(logdir, 'projector_config.pbtxt')).read(), reloaded)
print('reloaded equal:', reloaded == config, len(reloaded.embeddings))
print('shape and sprite:', list(reloaded.embeddings[1].tensor_shape),
      list(reloaded.embeddings[0].sprite.single_image_dim))
same = tf.contrib.tensorboard.plugins.projector.ProjectorConfig(
    model_checkpoint_path=os.path.join(logdir, 'model.ckpt-10'))
print('checkpoint path set:', same.model_checkpoint_path.endswith('model.ckpt-10'))
info = projector.EmbeddingInfo(tensor_name='a:0', sprite=projector.SpriteMetadata(
    image_path='s.png', single_image_dim=[8, 8]))
print('info:', text_format.MessageToString(info, as_one_line=True))
print('serialized bytes:', len(config.SerializeToString()))
print('empty config text:', repr(str(projector.ProjectorConfig())))
for label, build in [('negative dimension', lambda: embedding.tensor_shape.append(-1)),
                     ('unknown field', lambda: projector.ProjectorConfig(bogus=1))]:
    try:
        build()
        print(label, ': no error')
    except ValueError as e:
        print(label, ': ValueError', e)
