"""SciPy 1.1's image functions of ``scipy.misc`` (removed in SciPy 1.2 and 1.3), on Pillow.

TF1 image code (GANs, style transfer, data loaders) read, resized and wrote images with
``scipy.misc.imread`` / ``imresize`` / ``imsave`` / ``toimage``. SciPy 1.1 built them
on PIL; this module gives the same results from Pillow and NumPy (checked against SciPy
1.1.0 with Pillow 6.2.2: tests/unit/test_legacy_stack.py): ``imread`` as the image's own
mode (palette images as RGB or RGBA, 1-bit as L), ``flatten=True`` as float32 grey
(``"F"``), ``mode=`` as a conversion; ``bytescale`` to uint8 (uint8 input as is);
``toimage`` choosing ``L`` / ``RGB`` / ``RGBA`` / ``F`` / ``I`` / ``1`` / ``P`` as SciPy
1.1 did; ``imresize(arr, size, interp, mode)`` with ``size`` an int (percent), a float
(fraction) or ``(rows, columns)`` and ``interp`` one of nearest, lanczos, bilinear,
bicubic, cubic, through ``toimage`` (so bytescaled to uint8, as SciPy 1.1 did);
``imrotate``; ``imsave(name, arr, format=None)``.

Not provided: ``imfilter``, ``imshow`` (it started an external viewer), ``face`` /
``ascent`` (files SciPy shipped; ``scipy.datasets`` downloads them now). Nothing here
imports NumPy or Pillow at import time; without Pillow these raise an ImportError
naming ``pip install Pillow`` (SciPy 1.1 had no image functions without PIL either).
"""

__all__ = ["bytescale", "fromimage", "imread", "imresize", "imrotate", "imsave", "toimage"]

_INTERP = {"nearest": 0, "lanczos": 1, "bilinear": 2, "bicubic": 3, "cubic": 3}
_MODE_ERROR = "Mode is unknown or incompatible with input array shape."


def _pil():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("scipy.misc's image functions need Pillow (SciPy 1.1 had them "
                          "only with PIL installed): pip install Pillow") from None
    return Image


def _np():
    import numpy

    return numpy


def bytescale(data, cmin=None, cmax=None, high=255, low=0):
    """Scales ``data`` to uint8 in ``[low, high]`` (``cmin``/``cmax``: the input range,
    the data's min and max by default); uint8 input is returned as is."""
    np = _np()
    if data.dtype == np.uint8:
        return data
    if high > 255:
        raise ValueError("`high` should be less than or equal to 255.")
    if low < 0:
        raise ValueError("`low` should be greater than or equal to 0.")
    if high < low:
        raise ValueError("`high` should be greater than or equal to `low`.")
    cmin = data.min() if cmin is None else cmin
    cmax = data.max() if cmax is None else cmax
    span = cmax - cmin
    if span < 0:
        raise ValueError("`cmax` should be larger than `cmin`.")
    if span == 0:
        span = 1
    scale = float(high - low) / span
    scaled = (data - cmin) * scale + low
    return (scaled.clip(low, high) + 0.5).astype(np.uint8)


def fromimage(im, flatten=False, mode=None):
    """The array of a PIL image: ``mode`` converts first; otherwise a palette image
    becomes RGB (RGBA with transparency); ``flatten`` gives float32 grey; 1-bit gives L."""
    Image = _pil()
    if not isinstance(im, Image.Image):
        raise TypeError("Input is not a PIL image.")
    if mode is not None:
        if mode != im.mode:
            im = im.convert(mode)
    elif im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if flatten:
        im = im.convert("F")
    elif im.mode == "1":
        im = im.convert("L")
    return _np().array(im)


def imread(name, flatten=False, mode=None):
    """Reads an image file (a path or a file object) into an array (see :func:`fromimage`)."""
    with _pil().open(name) as im:  # the array is a copy: the file is closed at once
        return fromimage(im, flatten=flatten, mode=mode)


def toimage(arr, high=255, low=0, cmin=None, cmax=None, pal=None, mode=None,
            channel_axis=None):
    """A PIL image of a 2-D array (grey: bytescaled ``L``, or ``F``, ``I``, ``1``,
    ``P``) or of a 3-D array with a 3- or 4-long axis (``RGB``, ``RGBA``, ``YCbCr``,
    ``CMYK``, bytescaled)."""
    np, Image = _np(), _pil()
    data = np.asarray(arr)
    if np.iscomplexobj(data):
        raise ValueError("Cannot convert a complex-valued array.")
    shape = list(data.shape)
    if not (len(shape) == 2 or (len(shape) == 3 and (3 in shape or 4 in shape))):
        raise ValueError("'arr' does not have a suitable array shape for any mode.")
    if len(shape) == 2:
        size = (shape[1], shape[0])  # PIL: width first
        if mode == "F":
            return Image.frombytes("F", size, data.astype(np.float32).tobytes())
        if mode in (None, "L", "P"):
            image = Image.frombytes(
                "L", size, bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax).tobytes())
            if pal is None and mode == "P":  # a grey ramp
                pal = np.arange(256, dtype=np.uint8)[:, None] * np.ones(3, dtype=np.uint8)
            if pal is not None:
                image.putpalette(np.asarray(pal, dtype=np.uint8).tobytes())
            return image
        if mode == "1":  # high is the threshold
            return Image.frombytes("1", size, (data > high).tobytes())
        cmin = np.amin(np.ravel(data)) if cmin is None else cmin
        cmax = np.amax(np.ravel(data)) if cmax is None else cmax
        data = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
        if mode == "I":
            return Image.frombytes("I", size, data.astype(np.uint32).tobytes())
        raise ValueError(_MODE_ERROR)
    if channel_axis is None:
        sizes = np.asarray(shape)
        axes = np.flatnonzero(sizes == 3) if 3 in shape else np.flatnonzero(sizes == 4)
        if not len(axes):
            raise ValueError("Could not find channel dimension.")
        axis = int(axes[0])
    else:
        axis = channel_axis
    channels = shape[axis]
    if channels not in (3, 4):
        raise ValueError("Channel axis dimension is not valid.")
    scaled = bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax)
    if axis == 2:
        raw, size = scaled.tobytes(), (shape[1], shape[0])
    elif axis == 1:
        raw, size = np.transpose(scaled, (0, 2, 1)).tobytes(), (shape[2], shape[0])
    else:
        raw, size = np.transpose(scaled, (1, 2, 0)).tobytes(), (shape[2], shape[1])
    if mode is None:
        mode = "RGB" if channels == 3 else "RGBA"
    if mode not in ("RGB", "RGBA", "YCbCr", "CMYK"):
        raise ValueError(_MODE_ERROR)
    if (mode in ("RGB", "YCbCr") and channels != 3) or (mode in ("RGBA", "CMYK")
                                                         and channels != 4):
        raise ValueError("Invalid array shape for mode.")
    return Image.frombytes(mode, size, raw)


def _resample(interp):
    if interp not in _INTERP:
        raise KeyError(f"{interp!r}: interp must be one of {', '.join(_INTERP)}")
    return _INTERP[interp]


def imresize(arr, size, interp="bilinear", mode=None):
    """Resizes an image array: ``size`` an int (percent of the size), a float (fraction)
    or ``(rows, columns)``; the result is :func:`fromimage` of the resized
    :func:`toimage` (uint8 for a float or int array, as SciPy 1.1 gave)."""
    np = _np()
    im = toimage(arr, mode=mode)
    if np.issubdtype(type(size), np.signedinteger):
        size = tuple(int(v) for v in (np.array(im.size) * (size / 100.0)).astype(int))
    elif np.issubdtype(type(size), np.floating):
        size = tuple(int(v) for v in (np.array(im.size) * size).astype(int))
    else:
        size = (int(size[1]), int(size[0]))
    return fromimage(im.resize(size, resample=_resample(interp)))


def imrotate(arr, angle, interp="bilinear"):
    """Rotates an image array by ``angle`` degrees counter-clockwise (the size kept)."""
    return fromimage(toimage(arr).rotate(angle, resample=_resample(interp)))


def imsave(name, arr, format=None):
    """Writes an array as an image file (:func:`toimage` with the channels last)."""
    im = toimage(arr, channel_axis=2)
    if format is None:
        im.save(name)
    else:
        im.save(name, format)
