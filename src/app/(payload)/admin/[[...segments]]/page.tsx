import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import config from '@payload-config'
import { generatePageMetadata, RootPage } from '@payloadcms/next/views'
import { listWithoutUnreadableDates } from '../../../../server/listDateFilters'
import { importMap } from '../importMap.js'

type Args = {
  params: Promise<{ segments: string[] }>
  searchParams: Promise<{ [key: string]: string | string[] }>
}

export const generateMetadata = ({ params, searchParams }: Args): Promise<Metadata> =>
  generatePageMetadata({ config, params, searchParams })

const Page = async ({ params, searchParams }: Args) => {
  const cleaned = listWithoutUnreadableDates(
    await config,
    (await params).segments,
    await searchParams,
  )
  if (cleaned) redirect(cleaned)
  return RootPage({ config, params, searchParams, importMap })
}

export default Page
