"""The standard library as 2017-2019 TF1 scripts used it on Python 3.5-3.7: getargspec to
pick constructor arguments, time.clock to time steps, collections.Iterable checks,
cElementTree for Pascal VOC annotations, base64.encodestring for image payloads."""
from __future__ import print_function

import base64
import cgi
import collections
import fractions
import inspect
import time
from collections import Iterable, Mapping

import xml.etree.cElementTree as ET
import tensorflow as tf


def make_layer(units, activation=None, name="dense", *extra, **options):
    return units, activation, name


spec = inspect.getargspec(make_layer)
print("argspec:", spec.args, spec.varargs, spec.keywords, spec.defaults)
print("kwargs known:", [k for k in ("activation", "reuse") if k in spec.args])
start = time.clock()
with tf.Session() as sess:
    total = sess.run(tf.reduce_sum(tf.range(10)))
elapsed = time.clock() - start
print("total:", total, "clock is cpu seconds:", isinstance(elapsed, float) and elapsed >= 0)
print("iterable:", isinstance([1, 2], Iterable), isinstance("ab", collections.Iterable),
      isinstance({}, Mapping), isinstance(3, collections.Iterable))
print("gcd:", fractions.gcd(12, -8), fractions.gcd(-12, 8), fractions.gcd(7, 0))
print("b64:", base64.encodestring(b"\x89PNG"), base64.decodestring(b"iVBORw==\n"))
print("escape:", cgi.escape('<b class="x">&</b>'), cgi.escape('"q"', True))
voc = ET.fromstring("<annotation><object><name>dog</name><bndbox><xmin>48</xmin>"
                    "</bndbox></object></annotation>")
print("voc:", [(o.find("name").text, int(o.find("bndbox/xmin").text))
               for o in voc.iter("object")])
