"""``tf.contrib.image``'s projective transforms, on ``ImageProjectiveTransformV3``.

TF 1.15's ``tf.contrib.image`` shipped its own kernel (``ImageProjectiveTransformV2``
without a fill mode: points mapped outside the image read 0). TF 2 moved that kernel
into core as ``ImageProjectiveTransformV3``; this module owns the TF1 functions on top
of it, with ``fill_mode="CONSTANT"`` and ``fill_value=0`` (TF 1.15's zeros):
``transform``, ``rotate``, ``translate`` and the transform helpers
(``angles_to_projective_transforms``, ``translations_to_projective_transforms``,
``compose_transforms``, ``flat_transforms_to_matrices``,
``matrices_to_flat_transforms``); ``dense_image_warp`` comes from
:mod:`tf1mem.compat.tf.contrib.resampler`.

Guarantees: images of rank 2 (HW), 3 (HWC) or 4 (NHWC) come back with the rank and
dtype they had; a transform is one ``[8]`` vector or one per image (``[N, 8]``);
results equal TF 1.15.5's to 1e-6 (corpus script ``contrib_image.py``). An
interpolation other than NEAREST / BILINEAR is a ValueError when the op is built
(TF 1.15's kernel aborted the process). Not provided (named removed by
tf1mem's table (:mod:`tf1mem.compat.table`)): ``connected_components``, ``interpolate_spline``, ``sparse_image_warp``, ``image_projective_transform``'s
gradient-free aliases, ``single_image_random_dot_stereograms``, the ``*_distance``
and ``bipartite_match`` ops. Nothing here imports TensorFlow at import time.
"""

from tf1mem import errors
from tf1mem.compat.tf.contrib.resampler import dense_image_warp

__all__ = ["transform", "rotate", "translate", "angles_to_projective_transforms",
           "translations_to_projective_transforms", "compose_transforms",
           "flat_transforms_to_matrices", "matrices_to_flat_transforms", "dense_image_warp"]

_INTERPOLATIONS = ("NEAREST", "BILINEAR")


class InterpolationError(errors.ShimError, ValueError):
    """An interpolation ``tf.contrib.image`` never had (TF 1.15's kernel aborted on it)."""


def _tf():
    import tensorflow as tf

    return tf


def _as_batch(images):
    """(images as NHWC, a function that gives a result the caller's rank back)."""
    tf = _tf()
    images = tf.convert_to_tensor(images, name="images")
    rank = images.shape.rank
    if rank == 2:
        return images[None, :, :, None], lambda out: out[0, :, :, 0]
    if rank == 3:
        return images[None], lambda out: out[0]
    if rank == 4:
        return images, lambda out: out
    raise TypeError(f"tf.contrib.image: images must have rank 2 (HW), 3 (HWC) or 4 (NHWC); "
                    f"got shape {images.shape}.")


def _interpolation(interpolation):
    name = str(interpolation).upper()
    if name not in _INTERPOLATIONS:
        raise InterpolationError(
            f"tf.contrib.image: interpolation {interpolation!r} is not supported; use "
            f"'NEAREST' or 'BILINEAR' (TF 1.15 supported only those two).")
    return name


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies projective transforms (TF 1.15's ``tf.contrib.image.transform``).

    Args:
      images: [H, W], [H, W, C] or [N, H, W, C] tensor.
      transforms: [8] or [N, 8] float tensor: ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps
        an output point (x, y) to the input point ((a0 x + a1 y + a2) / k,
        (b0 x + b1 y + b2) / k) with k = c0 x + c1 y + 1.
      interpolation: "NEAREST" or "BILINEAR".
      output_shape: [height, width] of the output, default the input's.
      name: name scope.

    Returns:
      The transformed images, same rank and dtype as ``images``; points from outside
      the input are 0.
    """
    tf = _tf()
    interpolation = _interpolation(interpolation)
    with tf.compat.v1.name_scope(name, "transform", [images, transforms]):
        batch, restore = _as_batch(images)
        if output_shape is None:
            output_shape = tf.shape(batch)[1:3]
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        transforms = tf.convert_to_tensor(transforms, tf.float32, name="transforms")
        if transforms.shape.rank == 1:
            transforms = transforms[None]
        elif transforms.shape.rank != 2:
            raise TypeError(f"tf.contrib.image.transform: transforms must be [8] or [N, 8]; "
                            f"got shape {transforms.shape}.")
        out = tf.raw_ops.ImageProjectiveTransformV3(
            images=batch, transforms=transforms, output_shape=output_shape,
            fill_value=tf.constant(0.0, tf.float32), interpolation=interpolation,
            fill_mode="CONSTANT")
        return restore(out)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """Transforms that rotate images by ``angles`` (radians, counter-clockwise) about
    their centre: a [N, 8] float32 tensor (N = 1 for a scalar angle)."""
    tf = _tf()
    with tf.compat.v1.name_scope(name, "angles_to_projective_transforms"):
        angles = tf.convert_to_tensor(angles, tf.float32, name="angles")
        if angles.shape.rank == 0:
            angles = angles[None]
        h = tf.cast(image_height, tf.float32) - 1.0
        w = tf.cast(image_width, tf.float32) - 1.0
        cos, sin = tf.cos(angles), tf.sin(angles)
        x_offset = (w - (cos * w - sin * h)) / 2.0
        y_offset = (h - (sin * w + cos * h)) / 2.0
        zeros = tf.zeros_like(angles)
        return tf.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1)


def translations_to_projective_transforms(translations, name=None):
    """Transforms that shift images by ``translations`` ([dx, dy] or [N, 2], pixels):
    a [N, 8] float32 tensor."""
    tf = _tf()
    with tf.compat.v1.name_scope(name, "translations_to_projective_transforms"):
        translations = tf.convert_to_tensor(translations, tf.float32, name="translations")
        if translations.shape.rank == 1:
            translations = translations[None]
        ones = tf.ones_like(translations[:, 0])
        zeros = tf.zeros_like(ones)
        return tf.stack([ones, zeros, -translations[:, 0], zeros, ones,
                         -translations[:, 1], zeros, zeros], axis=1)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotates images counter-clockwise by ``angles`` (radians; one, or one per image)."""
    tf = _tf()
    with tf.compat.v1.name_scope(name, "rotate"):
        batch, restore = _as_batch(images)
        shape = tf.cast(tf.shape(batch), tf.float32)
        return restore(transform(
            batch, angles_to_projective_transforms(angles, shape[1], shape[2]),
            interpolation=interpolation))


def translate(images, translations, interpolation="NEAREST", name=None):
    """Shifts images by ``translations`` ([dx, dy], or one pair per image)."""
    tf = _tf()
    with tf.compat.v1.name_scope(name, "translate"):
        return transform(images, translations_to_projective_transforms(translations),
                         interpolation=interpolation)


def flat_transforms_to_matrices(transforms):
    """[N, 8] transforms -> [N, 3, 3] matrices (the ninth entry 1)."""
    tf = _tf()
    transforms = tf.convert_to_tensor(transforms, tf.float32, name="transforms")
    if transforms.shape.rank == 1:
        transforms = transforms[None]
    flat = tf.concat([transforms, tf.ones_like(transforms[:, :1])], axis=1)
    return tf.reshape(flat, [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices):
    """[N, 3, 3] matrices -> [N, 8] transforms, each scaled so that its [2, 2] entry is 1."""
    tf = _tf()
    matrices = tf.convert_to_tensor(transform_matrices, tf.float32, name="transform_matrices")
    flat = tf.reshape(matrices, [-1, 9])
    return flat[:, :8] / flat[:, 8:9]


def compose_transforms(*transforms):
    """One transform equal to applying the last of ``transforms`` first, as TF 1.15:
    the product of their matrices, left to right."""
    tf = _tf()
    if not transforms:
        raise ValueError("tf.contrib.image.compose_transforms needs at least one transform.")
    composed = flat_transforms_to_matrices(transforms[0])
    for t in transforms[1:]:
        composed = tf.matmul(composed, flat_transforms_to_matrices(t))
    return matrices_to_flat_transforms(composed)
