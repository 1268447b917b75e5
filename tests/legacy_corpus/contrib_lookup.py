"""tf.contrib.lookup as TF1 code called it: index_table_from_tensor(mapping=...) with
out-of-vocabulary buckets, index_to_string_table_from_tensor(mapping=...),
index_table_from_file / index_to_string_table_from_file on a vocabulary file, the
deprecated string_to_index / index_to_string (the Cloud ML census sample's
index_to_string(tf.to_int64(indices), mapping=...)) and string_to_index_table_from_*,
HashTable with KeyValueTensorInitializer, tf.tables_initializer; the errors."""
import os
import sys
import tempfile

import tensorflow as tf

words = tf.constant(['emerson', 'lake', 'palmer', 'king'])
mapping = tf.constant(['emerson', 'lake', 'palmer'])
ids = tf.contrib.lookup.index_table_from_tensor(mapping=mapping, num_oov_buckets=1,
                                                default_value=-1).lookup(words)
names = tf.contrib.lookup.index_to_string_table_from_tensor(
    mapping=mapping, default_value='UNKNOWN').lookup(tf.constant([1, 5, 0], tf.int64))
old_ids = tf.contrib.lookup.string_to_index(words, mapping=mapping, default_value=7)
scores = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3]])
_, indices = tf.nn.top_k(scores, 2)
classes = tf.contrib.lookup.index_to_string(tf.to_int64(indices), mapping=mapping)
vocab = os.path.join(tempfile.mkdtemp(), 'vocab.txt')
with open(vocab, 'w') as f:
    f.write('emerson\nlake\npalmer\n')
file_ids = tf.contrib.lookup.index_table_from_file(vocab, num_oov_buckets=2).lookup(words)
file_names = tf.contrib.lookup.index_to_string_table_from_file(vocab).lookup(
    tf.constant([2, 9], tf.int64))
old_file = tf.contrib.lookup.string_to_index_table_from_file(vocab).lookup(words)
old_tensor = tf.contrib.lookup.string_to_index_table_from_tensor(mapping).lookup(words)
hash_table = tf.contrib.lookup.HashTable(
    tf.contrib.lookup.KeyValueTensorInitializer(['a', 'b'], [10, 20]), -1)
hashed = hash_table.lookup(tf.constant(['b', 'z', 'a']))
with tf.Session() as sess:
    sess.run(tf.tables_initializer())
    for name, value in [('ids', ids), ('names', names), ('old ids', old_ids),
                        ('classes', classes), ('file ids', file_ids),
                        ('file names', file_names), ('string_to_index_table_from_file', old_file),
                        ('string_to_index_table_from_tensor', old_tensor),
                        ('hash table', hashed)]:
        print(name + ':', sess.run(value).tolist())
    print('hash table size:', sess.run(hash_table.size()))
for call in (lambda: tf.contrib.lookup.index_table_from_tensor(mapping=None),
             lambda: tf.contrib.lookup.index_to_string_table_from_tensor(None),
             lambda: tf.contrib.lookup.string_to_index_table_from_tensor(tf.constant([1, 2]))):
    try:
        call()
    except ValueError as e:
        print('error:', e)
