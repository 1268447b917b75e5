"""tf.gfile: MakeDirs, Exists, GFile/FastGFile write+read, Glob, ListDirectory, Copy, DeleteRecursively."""
import os
import tempfile

import tensorflow as tf

root = os.path.join(tempfile.mkdtemp(), 'a', 'b')
tf.gfile.MakeDirs(root)
print('exists: %s' % tf.gfile.Exists(root))
with tf.gfile.GFile(os.path.join(root, 'x.txt'), 'w') as f:
    f.write('hello\nworld\n')
with tf.gfile.Open(os.path.join(root, 'x.txt')) as f:
    print('lines: %s' % [l.strip() for l in f.readlines()])
tf.gfile.Copy(os.path.join(root, 'x.txt'), os.path.join(root, 'y.txt'), overwrite=True)
with tf.gfile.FastGFile(os.path.join(root, 'y.txt'), 'rb') as f:
    print('bytes: %d' % len(f.read()))
print('glob: %s' % sorted(os.path.basename(p) for p in tf.gfile.Glob(os.path.join(root, '*.txt'))))
print('listdir: %s' % sorted(tf.gfile.ListDirectory(root)))
print('isdir: %s' % tf.gfile.IsDirectory(root))
tf.gfile.DeleteRecursively(root)
print('deleted: %s' % (not tf.gfile.Exists(root)))
