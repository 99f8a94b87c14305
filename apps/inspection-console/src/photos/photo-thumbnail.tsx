import { ButtonBase } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type CheckRecord } from '../api/resources';
import { useOpenPhoto } from './record-photo-gallery';

/**
 * A record's photo as a small thumbnail; activating it opens the full-size photo in a lightbox with its caption
 * (inside a `RecordPhotoGallery`, with previous / next across the gallery's records).
 */
export function PhotoThumbnail({ record, size = 48 }: { record: CheckRecord; size?: number }) {
  const translate = useTranslate();
  const photo = useOpenPhoto(record);
  if (!record.photo) return null;
  return (
    <>
      <ButtonBase
        onClick={(event) => {
          event.stopPropagation();
          photo.open();
        }}
        aria-label={translate('console.records.open_photo', { id: record.id })}
        sx={{ borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider', flexShrink: 0 }}
      >
        <img
          src={record.photo}
          alt={translate('console.records.photo_of', { id: record.id })}
          width={size}
          height={size}
          style={{ objectFit: 'cover', display: 'block' }}
        />
      </ButtonBase>
      {photo.lightbox}
    </>
  );
}
